import { withHeaders, type Interceptor, type RequestContext } from '../../index.js';
import { answerStepOf, MadeAnswer } from '../../internal/request-path.js';

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
 * the route's own answer step makes the answer (its status, its response schema, 204 for
 * undefined, a Response as it is), and the header is added to it. An answer an inner interceptor
 * made (`idempotent`'s first answer or its replay) gets the header too, so put `NoStore` first.
 *
 * @example
 * signIn: post('/sign-in', { body: SignIn, interceptors: [NoStore] }, async (ctx) => toJson(await service.signIn(...))),
 */
export class NoStore implements Interceptor {
  async intercept(ctx: RequestContext, next: () => Promise<unknown>): Promise<unknown> {
    const value = await next();
    if (value instanceof MadeAnswer) return new MadeAnswer(withHeaders(value.answer, NO_STORE_HEADERS));
    // Interceptors run on compiled routes only, which all have an answer step.
    const toAnswer = ctx.route === undefined ? undefined : answerStepOf(ctx.route);
    if (toAnswer === undefined) throw new Error('NoStore ran outside a route');
    return new MadeAnswer(withHeaders(await toAnswer(value), NO_STORE_HEADERS));
  }
}
