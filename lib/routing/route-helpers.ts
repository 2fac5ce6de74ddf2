import { del, get, patch, post, put, type RouteHelper } from './route.js';
import { ws, type WebSocketRouteHelper } from './web-socket-route.js';

/**
 * The route helpers bound to a controller prefix, as `defineController` hands them to `routes`
 * after the dependencies: the same functions as `get`, `post`, ..., `ws`, typed so that
 * `ctx.params` (and a WebSocket connection's `params`) also has the prefix's parameters.
 *
 * @example
 * routes: (store, { get }) => ({ one: get('/:id', (ctx) => store.get(ctx.params.tenantId, ctx.params.id)) })
 */
export interface RouteHelpers<Prefix extends string = ''> {
  readonly get: RouteHelper<'GET', Prefix>;
  readonly post: RouteHelper<'POST', Prefix>;
  readonly put: RouteHelper<'PUT', Prefix>;
  readonly patch: RouteHelper<'PATCH', Prefix>;
  readonly del: RouteHelper<'DELETE', Prefix>;
  readonly ws: WebSocketRouteHelper<Prefix>;
}

/** The helpers `defineController` passes to `routes` (the types bind them to the prefix). */
export const routeHelpers: RouteHelpers<string> = Object.freeze({ get, post, put, patch, del, ws });
