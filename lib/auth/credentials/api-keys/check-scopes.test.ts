import { describe, expect, it } from 'vitest';
import type { MetadataEntry } from '../../../index.js';
import { readAccessRules } from '../../../internal/access-rules.js';
import { metadataRecord } from '../../../internal/definitions.js';
import { Public, RequireScopes } from '../../core/auth-metadata.js';
import { checkScopes } from './check-scopes.js';
import type { ScopeCredential } from './check-scopes.js';

const key = (...scopes: string[]): ScopeCredential => ({ kind: 'apiKey', scopes });
const token: ScopeCredential = { kind: 'token' };

/** The decision as the AuthGuard makes it: the route's rules read by `readAccessRules`, then `checkScopes`. */
function check(options: { route?: MetadataEntry[]; controller?: MetadataEntry[]; credential?: ScopeCredential; scopedRoutesOnly?: boolean }): 'allow' | 'forbid' {
  const rules = readAccessRules({ metadata: metadataRecord(options.route), controllerMetadata: metadataRecord(options.controller) });
  return checkScopes({ rules, credential: options.credential ?? key(), scopedRoutesOnly: options.scopedRoutesOnly ?? false });
}

describe('checkScopes', () => {
  it('a key must hold every listed scope', () => {
    expect(check({ route: [RequireScopes('a', 'b')], credential: key('a', 'b', 'c') })).toBe('allow');
    expect(check({ route: [RequireScopes('a', 'b')], credential: key('a') })).toBe('forbid');
    expect(check({ route: [RequireScopes('a')], credential: key() })).toBe('forbid');
  });

  it('matches scopes exactly (case-sensitive, no prefixes)', () => {
    expect(check({ route: [RequireScopes('posts:read')], credential: key('Posts:read') })).toBe('forbid');
    expect(check({ route: [RequireScopes('posts:read')], credential: key('posts') })).toBe('forbid');
    expect(check({ route: [RequireScopes('posts')], credential: key('posts:read') })).toBe('forbid');
  });

  it("a route's own list replaces its controller's", () => {
    expect(check({ route: [RequireScopes('w')], controller: [RequireScopes('r')], credential: key('w') })).toBe('allow');
    expect(check({ route: [RequireScopes('w')], controller: [RequireScopes('r')], credential: key('r') })).toBe('forbid');
    expect(check({ controller: [RequireScopes('r')], credential: key('r') })).toBe('allow');
    expect(check({ controller: [RequireScopes('r')], credential: key('w') })).toBe('forbid');
    // An empty route list replaces the controller's too: nothing is required.
    expect(check({ route: [RequireScopes()], controller: [RequireScopes('r')], credential: key() })).toBe('allow');
  });

  it('tokens are never held to scopes', () => {
    expect(check({ route: [RequireScopes('a')], credential: token })).toBe('allow');
    expect(check({ controller: [RequireScopes('a')], credential: token, scopedRoutesOnly: true })).toBe('allow');
    expect(check({ credential: token, scopedRoutesOnly: true })).toBe('allow');
  });

  it('scopedRoutesOnly refuses keys on routes without effective scopes', () => {
    expect(check({ scopedRoutesOnly: true, credential: key('a') })).toBe('forbid');
    expect(check({ scopedRoutesOnly: true, route: [RequireScopes()], controller: [RequireScopes('a')], credential: key('a') })).toBe('forbid');
    expect(check({ scopedRoutesOnly: true, controller: [RequireScopes('a')], credential: key('a') })).toBe('allow');
    expect(check({ scopedRoutesOnly: false, credential: key() })).toBe('allow');
  });

  it('public routes are always allowed, a public controller included', () => {
    expect(check({ route: [Public(), RequireScopes('a')], credential: key() })).toBe('allow');
    expect(check({ route: [Public()], scopedRoutesOnly: true, credential: key() })).toBe('allow');
    expect(check({ controller: [Public()], route: [RequireScopes('a')], credential: key() })).toBe('allow');
  });
});
