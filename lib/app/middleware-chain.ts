import type { Middleware } from '../context/middleware.js';
import type { Answer } from '../http/answer.js';
import type { Context } from '../context/request-context.js';
import { deliver, isPromiseLike, type Recover, type Reply } from './reply.js';

/** One step of a request's way: given the context, it calls `reply` once and never throws. */
export type Step = (ctx: Context, reply: Reply) => void;

/**
 * Puts the app's middleware around `inner` (routing and the route's pipeline), outermost first.
 * With no middleware the chain is `inner` itself: an app without middleware walks the same path,
 * with nothing around it. A layer's `next()` is `inner`'s reply as a promise; whatever a layer
 * throws (or its promise rejects with) becomes an answer through `recover` before the layer
 * outside sees it, so every middleware receives an answer from `next`, never an exception.
 *
 * @example
 * const run = chainMiddleware([cors, requestId], routeRequest, recover);
 * run(ctx, (answer) => write(answer));
 */
export function chainMiddleware(middleware: readonly Middleware[], inner: Step, recover: Recover): Step {
  let chain = inner;
  for (let i = middleware.length - 1; i >= 0; i--) {
    const layer = middleware[i] as Middleware;
    const next = chain;
    chain = (ctx, reply) => {
      let called = false;
      const callNext = (): Promise<Answer> => {
        if (called) return Promise.reject(new Error('A middleware called next() twice.'));
        called = true;
        return new Promise<Answer>((resolve) => next(ctx, resolve));
      };
      let answer: Answer | PromiseLike<Answer>;
      try {
        answer = layer(ctx, callNext);
      } catch (error) {
        deliver(recover(error, ctx), reply);
        return;
      }
      if (!isPromiseLike(answer)) {
        reply(answer);
        return;
      }
      Promise.resolve(answer).then(reply, (error: unknown) => deliver(recover(error, ctx), reply));
    };
  }
  return chain;
}
