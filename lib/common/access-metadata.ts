import { createMetadataKey, readMetadata, type MetadataKey } from './metadata.js';

/**
 * Who may call a route, as route metadata any part of the framework can read: the auth module
 * writes it (`Public()`, `Roles(...)`, `RequireScopes(...)` are entries of these keys) and the
 * OpenAPI generator documents it (no padlock on public routes, 403 where roles or scopes apply,
 * the API-key scheme with its scopes), without either importing the other.
 *
 * @example
 * readAccess(route); // { isPublic: false, roles: ['owner'], scopes: ['posts:write'] }
 */
export interface RouteAccess {
  readonly isPublic: boolean;
  /** One of these roles is required; undefined when no role is. */
  readonly roles: readonly string[] | undefined;
  /** The scopes an API key must hold; undefined when the route names none. */
  readonly scopes: readonly string[] | undefined;
}

/** `Public()`: the route needs no credential. */
export const ACCESS_PUBLIC: MetadataKey<true> = createMetadataKey<true>('access:public');
/** `Roles(...)`: the caller needs one of these roles. */
export const ACCESS_ROLES: MetadataKey<readonly string[]> = createMetadataKey<readonly string[]>('access:roles');
/** `RequireScopes(...)`: an API key needs these scopes; a route's list replaces its controller's. */
export const ACCESS_SCOPES: MetadataKey<readonly string[]> = createMetadataKey<readonly string[]>('access:scopes');

const NO_ROUTE: RouteAccess = Object.freeze({ isPublic: false, roles: undefined, scopes: undefined });

/**
 * A route's access rules with the precedence the auth guards apply: `Public` and `Roles` are
 * decided as a pair (a route that declares either decides both; else its controller's pair
 * applies), scopes are the route's own list, else its controller's.
 *
 * @example
 * const { isPublic, roles } = readAccess(ctx.route);
 */
export function readAccess(route: { readonly metadata: Readonly<Record<string, unknown>>; readonly controllerMetadata: Readonly<Record<string, unknown>> } | undefined): RouteAccess {
  if (!route) return NO_ROUTE;
  const own = route.metadata;
  const routeDecides = readMetadata(own, ACCESS_PUBLIC) !== undefined || readMetadata(own, ACCESS_ROLES) !== undefined;
  const pair = routeDecides ? own : route.controllerMetadata;
  return {
    isPublic: readMetadata(pair, ACCESS_PUBLIC) === true,
    roles: readMetadata(pair, ACCESS_ROLES),
    scopes: readMetadata(own, ACCESS_SCOPES) ?? readMetadata(route.controllerMetadata, ACCESS_SCOPES),
  };
}
