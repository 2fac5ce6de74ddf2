import { describe, expect, it } from 'vitest';
import { checkScopes } from './check-scopes.js';
import type { ScopeCheckInput, ScopeCredential } from './check-scopes.js';

const key = (...scopes: string[]): ScopeCredential => ({ kind: 'apiKey', scopes });
const token: ScopeCredential = { kind: 'token' };

function check(overrides: Partial<ScopeCheckInput>): 'allow' | 'forbid' {
  return checkScopes({
    routeScopes: undefined,
    controllerScopes: undefined,
    isPublic: false,
    credential: key(),
    scopedRoutesOnly: false,
    ...overrides,
  });
}

describe('checkScopes', () => {
  it('a key must hold every listed scope', () => {
    expect(check({ routeScopes: ['a', 'b'], credential: key('a', 'b', 'c') })).toBe('allow');
    expect(check({ routeScopes: ['a', 'b'], credential: key('a') })).toBe('forbid');
    expect(check({ routeScopes: ['a'], credential: key() })).toBe('forbid');
  });

  it('matches scopes exactly (case-sensitive, no prefixes)', () => {
    expect(check({ routeScopes: ['posts:read'], credential: key('Posts:read') })).toBe('forbid');
    expect(check({ routeScopes: ['posts:read'], credential: key('posts') })).toBe('forbid');
    expect(check({ routeScopes: ['posts'], credential: key('posts:read') })).toBe('forbid');
  });

  it("a route's own list replaces its controller's", () => {
    expect(check({ routeScopes: ['w'], controllerScopes: ['r'], credential: key('w') })).toBe('allow');
    expect(check({ routeScopes: ['w'], controllerScopes: ['r'], credential: key('r') })).toBe('forbid');
    expect(check({ routeScopes: undefined, controllerScopes: ['r'], credential: key('r') })).toBe('allow');
    expect(check({ routeScopes: undefined, controllerScopes: ['r'], credential: key('w') })).toBe('forbid');
    // An empty route list replaces the controller's too: nothing is required.
    expect(check({ routeScopes: [], controllerScopes: ['r'], credential: key() })).toBe('allow');
  });

  it('tokens are never held to scopes', () => {
    expect(check({ routeScopes: ['a'], credential: token })).toBe('allow');
    expect(check({ controllerScopes: ['a'], credential: token, scopedRoutesOnly: true })).toBe('allow');
    expect(check({ credential: token, scopedRoutesOnly: true })).toBe('allow');
  });

  it('scopedRoutesOnly refuses keys on routes without effective scopes', () => {
    expect(check({ scopedRoutesOnly: true, credential: key('a') })).toBe('forbid');
    expect(check({ scopedRoutesOnly: true, routeScopes: [], controllerScopes: ['a'], credential: key('a') })).toBe('forbid');
    expect(check({ scopedRoutesOnly: true, controllerScopes: ['a'], credential: key('a') })).toBe('allow');
    expect(check({ scopedRoutesOnly: false, credential: key() })).toBe('allow');
  });

  it('public routes are always allowed', () => {
    expect(check({ isPublic: true, routeScopes: ['a'], credential: key() })).toBe('allow');
    expect(check({ isPublic: true, scopedRoutesOnly: true, credential: key() })).toBe('allow');
  });
});
