import { createMetadataKey, readMetadata, readRouteMetadata, type MetadataKey } from '../common/metadata.js';

/**
 * Who may call a route, as route metadata any part of the framework can read: the auth module
 * writes it (`Public()`, `Roles(...)`, `RequireScopes(...)` are entries of these keys), its
 * `AuthGuard` enforces it and the OpenAPI generator documents it (no padlock on public routes, 403
 * where roles or scopes apply, the API-key scheme with its scopes), all through
 * {@link readAccessRules}, without auth and OpenAPI importing each other.
 *
 * @example
 * readAccessRules(route); // { isPublic: false, roles: ['owner'], scopes: ['posts:write'] }
 */
export interface AccessRules {
  readonly isPublic: boolean;
  /** One of these roles is required; undefined when no role is. */
  readonly roles: readonly string[] | undefined;
  /** The scopes an API key must all hold (the route's own list, else its controller's); undefined when neither names any. */
  readonly scopes: readonly string[] | undefined;
}

/** `Public()`: the route needs no credential. */
export const ACCESS_PUBLIC: MetadataKey<true> = createMetadataKey<true>('access:public');
/** `Roles(...)`: the caller needs one of these roles. */
export const ACCESS_ROLES: MetadataKey<readonly string[]> = createMetadataKey<readonly string[]>('access:roles');
/** `RequireScopes(...)`: an API key needs these scopes; a route's list replaces its controller's (a `replace` key). */
export const ACCESS_SCOPES: MetadataKey<readonly string[]> = createMetadataKey<readonly string[]>('access:scopes');

/** An unknown route (a mounted handler) is not public and requires nothing more. */
const NO_ROUTE: AccessRules = Object.freeze({ isPublic: false, roles: undefined, scopes: undefined });

/**
 * A route's access rules, the one reader of them: `Public` and `Roles` are decided as a pair (a
 * route that declares either decides both, so a `Roles` route inside a `Public` controller is not
 * public; else its controller's pair applies); scopes are the route's own list, else its
 * controller's (an empty own list replaces the controller's too).
 *
 * @example
 * const { isPublic, roles, scopes } = readAccessRules(ctx.route);
 */
export function readAccessRules(route: { readonly metadata: Readonly<Record<string, unknown>>; readonly controllerMetadata: Readonly<Record<string, unknown>> } | undefined): AccessRules {
  if (!route) return NO_ROUTE;
  const own = route.metadata;
  const routeDecides = readMetadata(own, ACCESS_PUBLIC) !== undefined || readMetadata(own, ACCESS_ROLES) !== undefined;
  const pair = routeDecides ? own : route.controllerMetadata;
  return {
    isPublic: readMetadata(pair, ACCESS_PUBLIC) === true,
    roles: readMetadata(pair, ACCESS_ROLES),
    scopes: readRouteMetadata(route, ACCESS_SCOPES),
  };
}
