import type { Answer } from '../http/answer.js';
import type { RequestContext } from './request-context.js';

/**
 * Runs around every request, before routing: it sees every answer, whatever produced it (a
 * handler, a guard's refusal, a validation 400, the router's 404 or 405, a 413 or 415, a thrown
 * error already turned into a problem), can answer early without calling `next` (a CORS
 * preflight), and can change the answer (`withHeaders`, or return another one). `ctx.route` and
 * `ctx.params` are set once `next` has routed the request.
 *
 * @example
 * const poweredBy: Middleware = async (ctx, next) => withHeaders(await next(), { 'x-powered-by': 'tessera' });
 * await createApp(AppModule, { middleware: [poweredBy] });
 */
export type Middleware = (ctx: RequestContext, next: () => Promise<Answer>) => Answer | Promise<Answer>;

/**
 * Maps an error thrown anywhere in a request (a guard, a handler, a middleware) to an answer;
 * `undefined` leaves it to the default (an HttpException's problem, else a logged 500).
 *
 * @example
 * const onError: ErrorHandler = (error) => (error instanceof PostLockedError ? jsonAnswer(423, { locked: true }) : undefined);
 */
export type ErrorHandler = (error: unknown, ctx: RequestContext) => Answer | undefined | Promise<Answer | undefined>;

/**
 * Answers a request no route matches (instead of the default 404 problem). Not called for 405:
 * a known path with another method still answers 405 with `Allow`.
 *
 * @example
 * const notFound: NotFoundHandler = (ctx) => jsonAnswer(404, { error: `Nothing at ${ctx.path}` });
 */
export type NotFoundHandler = (ctx: RequestContext) => Answer | Promise<Answer>;
