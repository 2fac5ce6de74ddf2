/**
 * Who is calling, as far as scopes are concerned: a bearer token (never held to scopes) or an
 * API key with the scopes stored on its record.
 *
 * @example
 * const credential: ScopeCredential = { kind: 'apiKey', scopes: current.scopes };
 */
export type ScopeCredential = { readonly kind: 'token' } | { readonly kind: 'apiKey'; readonly scopes: readonly string[] };

/**
 * Everything `checkScopes` decides on.
 *
 * @example
 * const input: ScopeCheckInput = {
 *   routeScopes: ['posts:write'], controllerScopes: ['posts:read'], isPublic: false,
 *   credential: { kind: 'apiKey', scopes: ['posts:write'] }, scopedRoutesOnly: false,
 * };
 */
export interface ScopeCheckInput {
  /** The route's own `RequireScopes` list, or `undefined` when the route declares none. */
  readonly routeScopes: readonly string[] | undefined;
  /** The controller's `RequireScopes` list, or `undefined`. */
  readonly controllerScopes: readonly string[] | undefined;
  /** Whether the route is `Public()` (as the guard already resolved it). */
  readonly isPublic: boolean;
  readonly credential: ScopeCredential;
  /** `ApiKeyOptions.scopedRoutesOnly`. */
  readonly scopedRoutesOnly: boolean;
}

/**
 * The scope decision of the AuthGuard (SPEC "API keys" 8-9); `'forbid'` means 403.
 *
 * 1. A public route: allow. Public routes are never touched, whatever the credential.
 * 2. A token: allow. Tokens are never held to scopes (roles are their mechanism).
 * 3. The effective list is the route's own list when it has one (even an empty one), else the
 *    controller's: a route's list replaces its controller's, it does not add to it.
 * 4. With `scopedRoutesOnly`, a key on a route whose effective list is missing or empty: forbid.
 * 5. A key must hold every scope of the effective list (exact, case-sensitive match): else forbid.
 *
 * @example
 * checkScopes({ routeScopes: undefined, controllerScopes: ['posts:read'], isPublic: false,
 *   credential: { kind: 'apiKey', scopes: ['posts:read'] }, scopedRoutesOnly: true }); // 'allow'
 */
export function checkScopes(input: ScopeCheckInput): 'allow' | 'forbid' {
  if (input.isPublic) return 'allow';
  const credential = input.credential;
  if (credential.kind !== 'apiKey') return 'allow';
  const required = input.routeScopes ?? input.controllerScopes ?? [];
  if (required.length === 0) return input.scopedRoutesOnly ? 'forbid' : 'allow';
  const held = new Set(credential.scopes);
  for (const scope of required) {
    if (!held.has(scope)) return 'forbid';
  }
  return 'allow';
}
