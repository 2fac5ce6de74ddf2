import type { MetadataEntry } from '../../index.js';
import { ACCESS_PUBLIC, ACCESS_ROLES, ACCESS_SCOPES } from '../../internal/access-rules.js';

// The access rules' entries. Their keys and their one reader, `readAccessRules`, live in the core
// (lib/access/access-metadata.ts), where the OpenAPI generator reads them too.

/**
 * Requires at least one of the roles (read from the `roles` claim) on a route or controller.
 * Works as a builder option and as a decorator. Only `AuthGuard` (and `createRolesGuard`) act on it.
 *
 * @example
 * del('/:id', { metadata: [Roles('owner')] }, handler);
 * @Delete(':id') @Roles('owner') remove() {}
 */
export function Roles(...roles: [string, ...string[]]): MetadataEntry<readonly string[]> {
  if (roles.length === 0 || roles.some((r) => typeof r !== 'string' || r === '')) throw new TypeError('Roles() needs one or more non-empty role names.');
  return ACCESS_ROLES.with(Object.freeze([...roles]));
}

/**
 * Marks a route or controller as needing no credential: `AuthGuard` lets it through, even
 * under `protectAllRoutes`.
 *
 * @example
 * get('/health', { metadata: [Public()] }, () => 'ok');
 * @Get('health') @Public() health() { return 'ok'; }
 */
export function Public(): MetadataEntry<true> {
  return ACCESS_PUBLIC.with(true);
}

/**
 * Requires an API key to hold every listed scope. A route's own list replaces its controller's.
 * Bearer tokens are never held to scopes.
 *
 * @example
 * get('/posts', { metadata: [RequireScopes('posts:read')] }, handler);
 * @Get() @RequireScopes('posts:read') list() {}
 */
export function RequireScopes(...scopes: string[]): MetadataEntry<readonly string[]> {
  if (scopes.some((s) => typeof s !== 'string' || s === '')) throw new TypeError('RequireScopes() takes non-empty scope names.');
  return ACCESS_SCOPES.with(Object.freeze([...scopes]));
}
