import type { ErrorHandler } from '../context/middleware.js';
import { errorAnswer } from '../http/problem.js';
import type { Answer } from '../http/answer.js';
import type { Recover } from './reply.js';

/**
 * The app's one way from an error to an answer: its `onError` first, and where that gives
 * nothing (or fails), the default problem (an HttpException's own, else a 500 logged to the
 * request's logger). Tells the request's telemetry which error became the answer. Never
 * throws, and its promise (with an async `onError`) never rejects.
 *
 * @example
 * const recover = createRecover(options.onError);
 * deliver(recover(error, ctx), reply);
 */
export function createRecover(onError: ErrorHandler | undefined): Recover {
  if (onError === undefined) {
    return (error, ctx) => {
      ctx.telemetry?.failed(error);
      return errorAnswer(error, ctx);
    };
  }
  return (error, ctx) => {
    ctx.telemetry?.failed(error);
    const fallback = (handlerError: unknown): Answer => {
      ctx.log.error({ err: handlerError }, 'onError failed; answering with the default problem');
      return errorAnswer(error, ctx);
    };
    try {
      const mapped = onError(error, ctx);
      if (mapped instanceof Promise) return mapped.then((answer) => answer ?? errorAnswer(error, ctx), fallback);
      return mapped ?? errorAnswer(error, ctx);
    } catch (handlerError) {
      return fallback(handlerError);
    }
  };
}
