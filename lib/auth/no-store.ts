import { compileResponseWriter, jsonAnswer, toResponse, withHeaders, type Interceptor, type RequestContext, type ResponseWriter, type RouteInfo } from '../internal.js';

/**
 * The header of every answer that carries a token, a key or a secret: no cache (a browser's, a
 * proxy's, a CDN's) may keep it (RFC 6749 section 5.1; RFC 9111 section 5.2.2.5; ASVS 5.0 14.3.2).
 *
 * @example
 * return withHeaders(answer, NO_STORE_HEADERS);
 */
export const NO_STORE_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'cache-control': 'no-store' });

/**
 * An interceptor that adds `Cache-Control: no-store` to its route's answer: put it on every route
 * whose answer carries a token, an API key or another secret (sign-in, refresh, key creation).
 * The value the handler returns keeps its type (typed clients and OpenAPI see the same route):
 * the interceptor writes it as the route would (its status, its response schema when it has
 * one, 204 for undefined) and adds the header; a Response the handler returns gets the header
 * too. Put it first in the list, so that an answer another interceptor replays (`idempotent`)
 * gets the header as well.
 *
 * @example
 * signIn: post('/sign-in', { body: SignIn, interceptors: [NoStore] }, async (ctx) => toJson(await service.signIn(...))),
 */
export class NoStore implements Interceptor {
  // One writer per route, compiled on its first answer (as the route's own pipeline does at boot).
  readonly #writers = new WeakMap<RouteInfo, ResponseWriter>();

  async intercept(ctx: RequestContext, next: () => Promise<unknown>): Promise<Response> {
    const value = await next();
    if (value instanceof Response) return toResponse(withHeaders(value, NO_STORE_HEADERS));
    const route = ctx.route;
    // Interceptors run on routes only; without one there is no status to answer with.
    if (route === undefined) throw new Error('NoStore ran outside a route');
    if (route.response === undefined || value === undefined) return toResponse(withHeaders(jsonAnswer(route.status, value), NO_STORE_HEADERS));
    const text = await this.#writerOf(route, route.response)(value);
    if (text === undefined) return toResponse(withHeaders(jsonAnswer(route.status, undefined), NO_STORE_HEADERS));
    return new Response(text, { status: route.status, headers: { 'content-type': 'application/json', ...NO_STORE_HEADERS } });
  }

  #writerOf(route: RouteInfo, schema: NonNullable<RouteInfo['response']>): ResponseWriter {
    let write = this.#writers.get(route);
    if (write === undefined) this.#writers.set(route, (write = compileResponseWriter(schema, `${route.controller}.${route.name}`)));
    return write;
  }
}
