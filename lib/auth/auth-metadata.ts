import { ACCESS_PUBLIC, ACCESS_ROLES, ACCESS_SCOPES, readAccess, type MetadataEntry } from '../internal.js';
import type { RouteInfo } from '../internal.js';

/** Route metadata: the roles of which a caller needs at least one. */
export const ROLES_KEY = ACCESS_ROLES;
/** Route metadata: the route needs no credential. */
export const PUBLIC_KEY = ACCESS_PUBLIC;
/** Route metadata: the scopes an API key must all hold. */
export const SCOPES_KEY = ACCESS_SCOPES;

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
  return ROLES_KEY.with(Object.freeze([...roles]));
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
  return PUBLIC_KEY.with(true);
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
  return SCOPES_KEY.with(Object.freeze([...scopes]));
}

/**
 * The effective access rules of a route. `Public` and `Roles` are decided together: when the
 * route itself declares either, the route's pair wins over the controller's pair, so a
 * `@Roles` route inside a `@Public` controller is not public. Scopes are decided by
 * `checkScopes`, which applies its own rule (the route's list replaces the controller's).
 *
 * @example
 * const { isPublic, roles } = readAccessRules(ctx.route);
 */
export interface AccessRules {
  readonly isPublic: boolean;
  readonly roles: readonly string[] | undefined;
}

const NO_ROUTE: AccessRules = Object.freeze({ isPublic: false, roles: undefined });

/**
 * Reads {@link AccessRules} from a route; an unknown route (a mounted handler) is not public.
 *
 * @example
 * if (!readAccessRules(ctx.route).isPublic) authenticate(ctx);
 */
export function readAccessRules(route: RouteInfo | undefined): AccessRules {
  if (!route) return NO_ROUTE;
  const access = readAccess(route);
  return { isPublic: access.isPublic, roles: access.roles };
}
