import type { ErrorHandler } from '../context/middleware.js';
import type { Logger } from '../common/logger.js';
import { errorAnswer } from '../http/problem.js';
import type { Answer } from '../http/answer.js';
import type { Recover } from './reply.js';

/**
 * The app's one way from an error to an answer: its `onError` first, and where that gives
 * nothing (or fails), the default problem (an HttpException's own, else a logged 500). Never
 * throws, and its promise (with an async `onError`) never rejects.
 *
 * @example
 * const recover = createRecover(options.onError, logger);
 * deliver(recover(error, ctx), reply);
 */
export function createRecover(onError: ErrorHandler | undefined, logger: Logger): Recover {
  if (onError === undefined) return (error) => errorAnswer(error, logger);
  return (error, ctx) => {
    const fallback = (handlerError: unknown): Answer => {
      logger.error('onError failed; answering with the default problem', handlerError);
      return errorAnswer(error, logger);
    };
    try {
      const mapped = onError(error, ctx);
      if (mapped instanceof Promise) return mapped.then((answer) => answer ?? errorAnswer(error, logger), fallback);
      return mapped ?? errorAnswer(error, logger);
    } catch (handlerError) {
      return fallback(handlerError);
    }
  };
}
