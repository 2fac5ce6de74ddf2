import type { AccessRules } from '../../../internal/access-rules.js';

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
 *   rules: readAccessRules(ctx.route), credential: { kind: 'apiKey', scopes: ['posts:write'] }, scopedRoutesOnly: false,
 * };
 */
export interface ScopeCheckInput {
  /** The route's rules as `readAccessRules` reads them: whether it is public, and its scope list (the route's own, else its controller's). */
  readonly rules: Pick<AccessRules, 'isPublic' | 'scopes'>;
  readonly credential: ScopeCredential;
  /** `ApiKeyOptions.scopedRoutesOnly`. */
  readonly scopedRoutesOnly: boolean;
}

/**
 * The scope decision of the AuthGuard (SPEC "API keys" 8-9); `'forbid'` means 403.
 *
 * 1. A public route: allow. Public routes are never touched, whatever the credential.
 * 2. A token: allow. Tokens are never held to scopes (roles are their mechanism).
 * 3. With `scopedRoutesOnly`, a key on a route whose scope list is missing or empty: forbid.
 * 4. A key must hold every scope of the list (exact, case-sensitive match): else forbid.
 *
 * Which list applies (a route's own list replaces its controller's) is `readAccessRules`'s to say.
 *
 * @example
 * checkScopes({ rules: { isPublic: false, scopes: ['posts:read'] },
 *   credential: { kind: 'apiKey', scopes: ['posts:read'] }, scopedRoutesOnly: true }); // 'allow'
 */
export function checkScopes(input: ScopeCheckInput): 'allow' | 'forbid' {
  if (input.rules.isPublic) return 'allow';
  const credential = input.credential;
  if (credential.kind !== 'apiKey') return 'allow';
  const required = input.rules.scopes ?? [];
  if (required.length === 0) return input.scopedRoutesOnly ? 'forbid' : 'allow';
  const held = new Set(credential.scopes);
  for (const scope of required) {
    if (!held.has(scope)) return 'forbid';
  }
  return 'allow';
}
