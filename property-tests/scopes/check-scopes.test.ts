// The AuthGuard's scope decision (readAccessRules, then checkScopes) against an independent model
// of SPEC "API keys" 8-9 and the Public/Roles precedence, for arbitrary route and controller
// metadata (Public, Roles, RequireScopes at either level), key scopes, credential kind and
// scopedRoutesOnly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { MetadataEntry } from '../../lib/index.js';
import { readAccessRules } from '../../lib/internal/access-rules.js';
import { metadataRecord } from '../../lib/internal/definitions.js';
import { checkScopes } from '../../lib/auth/credentials/api-keys/check-scopes.js';
import type { ScopeCredential } from '../../lib/auth/credentials/api-keys/check-scopes.js';
import { Public, RequireScopes, Roles } from '../../lib/auth/core/auth-metadata.js';

const RUNS = { numRuns: 2000 };

// A small alphabet so that lists overlap often; plus look-alikes that must not match.
const scopeArb = fc.constantFrom('posts:read', 'posts:write', 'admin', 'Posts:read', 'posts', 'posts:read ');
const listArb = fc.option(fc.array(scopeArb, { maxLength: 4 }), { nil: undefined });

/** What one level (a route, or its controller) declares. */
interface Level {
  readonly isPublic: boolean;
  readonly roles: boolean;
  readonly scopes: readonly string[] | undefined;
}
const levelArb: fc.Arbitrary<Level> = fc.record({ isPublic: fc.boolean(), roles: fc.boolean(), scopes: listArb });

interface Input {
  readonly route: Level;
  readonly controller: Level;
  readonly credential: ScopeCredential;
  readonly scopedRoutesOnly: boolean;
}
const credentialArb: fc.Arbitrary<ScopeCredential> = fc.oneof(
  fc.constant<ScopeCredential>({ kind: 'token' }),
  fc.array(scopeArb, { maxLength: 5 }).map((scopes): ScopeCredential => ({ kind: 'apiKey', scopes })),
);
const inputArb: fc.Arbitrary<Input> = fc.record({ route: levelArb, controller: levelArb, credential: credentialArb, scopedRoutesOnly: fc.boolean() });

function entries(level: Level): MetadataEntry[] {
  const list: MetadataEntry[] = [];
  if (level.isPublic) list.push(Public());
  if (level.roles) list.push(Roles('owner'));
  if (level.scopes !== undefined) list.push(RequireScopes(...level.scopes));
  return list;
}

/** The guard's decision: the one reader, then the scope check. */
function decide(input: Input): 'allow' | 'forbid' {
  const rules = readAccessRules({ metadata: metadataRecord(entries(input.route)), controllerMetadata: metadataRecord(entries(input.controller)) });
  return checkScopes({ rules, credential: input.credential, scopedRoutesOnly: input.scopedRoutesOnly });
}

/** The scope list that applies: "a route's own list replaces its controller's". */
function effective(input: Input): readonly string[] | undefined {
  return input.route.scopes !== undefined ? input.route.scopes : input.controller.scopes;
}

/** The model, written from the spec's sentences rather than from the implementation. */
function model(input: Input): 'allow' | 'forbid' {
  // "A route's own Public/Roles win over its controller's": a route declaring either decides.
  const decider = input.route.isPublic || input.route.roles ? input.route : input.controller;
  if (decider.isPublic) return 'allow'; // "Public routes stay public."
  if (input.credential.kind === 'token') return 'allow'; // "never held to scopes"
  const keyScopes = input.credential.scopes;
  const list = effective(input);
  const hasList = list !== undefined && list.length > 0;
  if (input.scopedRoutesOnly && !hasList) return 'forbid';
  const holdsAll = (list ?? []).every((required) => keyScopes.some((held) => held === required));
  return holdsAll ? 'allow' : 'forbid';
}

const isPublicRoute = (input: Input): boolean => (input.route.isPublic || input.route.roles ? input.route : input.controller).isPublic;

describe('scope decision (property)', () => {
  it('agrees with the model everywhere', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(decide(input)).toBe(model(input));
      }),
      RUNS,
    );
  });

  it('a public route is allowed whatever else holds, and a Public controller is overridden only by the route declaring Public or Roles', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(decide({ ...input, route: { ...input.route, isPublic: true } })).toBe('allow');
        const controllerPublic = { ...input, controller: { ...input.controller, isPublic: true }, route: { ...input.route, isPublic: false, roles: false } };
        expect(decide(controllerPublic)).toBe('allow');
      }),
      RUNS,
    );
  });

  it('tokens are never held to scopes', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(decide({ ...input, credential: { kind: 'token' } })).toBe('allow');
      }),
      RUNS,
    );
  });

  it('a key holding exactly the effective list is allowed; removing any one scope forbids', () => {
    fc.assert(
      fc.property(inputArb, fc.nat(), (input, pick) => {
        const list = effective(input) ?? [];
        fc.pre(!isPublicRoute(input) && list.length > 0);
        expect(decide({ ...input, credential: { kind: 'apiKey', scopes: [...list] } })).toBe('allow');
        const dropped = list[pick % list.length] as string;
        expect(decide({ ...input, credential: { kind: 'apiKey', scopes: list.filter((s) => s !== dropped) } })).toBe('forbid');
      }),
      RUNS,
    );
  });

  it('the controller list is irrelevant when the route has its own', () => {
    fc.assert(
      fc.property(inputArb, listArb, (input, otherList) => {
        fc.pre(input.route.scopes !== undefined);
        expect(decide({ ...input, controller: { ...input.controller, scopes: otherList } })).toBe(decide(input));
      }),
      RUNS,
    );
  });

  it('scopedRoutesOnly only ever turns allow into forbid, and only for keys on unscoped routes', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const loose = decide({ ...input, scopedRoutesOnly: false });
        const strict = decide({ ...input, scopedRoutesOnly: true });
        if (loose === 'forbid') expect(strict).toBe('forbid');
        if (loose !== strict) {
          expect(isPublicRoute(input)).toBe(false);
          expect(input.credential.kind).toBe('apiKey');
          expect(effective(input) ?? []).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});
