// checkScopes against an independent model of SPEC "API keys" 8-9, for arbitrary route and
// controller lists, key scopes, public flag, credential kind and scopedRoutesOnly.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkScopes } from '../../lib/auth/api-keys/check-scopes.js';
import type { ScopeCheckInput, ScopeCredential } from '../../lib/auth/api-keys/check-scopes.js';

const RUNS = { numRuns: 2000 };

// A small alphabet so that lists overlap often; plus look-alikes that must not match.
const scopeArb = fc.constantFrom('posts:read', 'posts:write', 'admin', 'Posts:read', 'posts', '', 'posts:read ');
const listArb = fc.option(fc.array(scopeArb, { maxLength: 4 }), { nil: undefined });
const credentialArb: fc.Arbitrary<ScopeCredential> = fc.oneof(
  fc.constant<ScopeCredential>({ kind: 'token' }),
  fc.array(scopeArb, { maxLength: 5 }).map((scopes): ScopeCredential => ({ kind: 'apiKey', scopes })),
);
const inputArb: fc.Arbitrary<ScopeCheckInput> = fc.record({
  routeScopes: listArb,
  controllerScopes: listArb,
  isPublic: fc.boolean(),
  credential: credentialArb,
  scopedRoutesOnly: fc.boolean(),
});

/** The model, written from the spec's sentences rather than from the implementation. */
function model(input: ScopeCheckInput): 'allow' | 'forbid' {
  if (input.isPublic) return 'allow'; // "Public routes stay public."
  if (input.credential.kind === 'token') return 'allow'; // "never held to scopes"
  const keyScopes = input.credential.scopes;
  const effective = input.routeScopes !== undefined ? input.routeScopes : input.controllerScopes; // "replaces"
  const hasEffective = effective !== undefined && effective.length > 0;
  if (input.scopedRoutesOnly && !hasEffective) return 'forbid';
  const holdsAll = (effective ?? []).every((required) => keyScopes.some((held) => held === required));
  return holdsAll ? 'allow' : 'forbid';
}

describe('checkScopes (property)', () => {
  it('agrees with the model everywhere', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(checkScopes(input)).toBe(model(input));
      }),
      RUNS,
    );
  });

  it('public routes are allowed whatever else holds', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(checkScopes({ ...input, isPublic: true })).toBe('allow');
      }),
      RUNS,
    );
  });

  it('tokens are never held to scopes', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        expect(checkScopes({ ...input, credential: { kind: 'token' } })).toBe('allow');
      }),
      RUNS,
    );
  });

  it("a key holding exactly the effective list is allowed; removing any one scope forbids", () => {
    fc.assert(
      fc.property(inputArb, fc.nat(), (input, pick) => {
        const effective = input.routeScopes ?? input.controllerScopes ?? [];
        fc.pre(!input.isPublic && effective.length > 0);
        const exact = { ...input, credential: { kind: 'apiKey', scopes: [...effective] } as const };
        expect(checkScopes(exact)).toBe('allow');
        const dropped = effective[pick % effective.length] as string;
        const missing = { ...input, credential: { kind: 'apiKey', scopes: effective.filter((s) => s !== dropped) } as const };
        expect(checkScopes(missing)).toBe('forbid');
      }),
      RUNS,
    );
  });

  it("the controller list is irrelevant when the route has its own", () => {
    fc.assert(
      fc.property(inputArb, listArb, (input, otherController) => {
        fc.pre(input.routeScopes !== undefined);
        expect(checkScopes({ ...input, controllerScopes: otherController })).toBe(checkScopes(input));
      }),
      RUNS,
    );
  });

  it('scopedRoutesOnly only ever turns allow into forbid, and only for keys on unscoped routes', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const loose = checkScopes({ ...input, scopedRoutesOnly: false });
        const strict = checkScopes({ ...input, scopedRoutesOnly: true });
        if (loose === 'forbid') expect(strict).toBe('forbid');
        if (loose !== strict) {
          const effective = input.routeScopes ?? input.controllerScopes ?? [];
          expect(input.isPublic).toBe(false);
          expect(input.credential.kind).toBe('apiKey');
          expect(effective).toEqual([]);
        }
      }),
      RUNS,
    );
  });
});
