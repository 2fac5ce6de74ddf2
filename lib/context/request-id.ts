import { REQUEST_ID_SLOT, type RequestContext, type StateKey } from './request-context.js';

/**
 * Where the request id lives in the request context: the `requestId()` middleware of
 * `tessera-http/middleware` sets it, the access log and application code read it.
 *
 * @example
 * ctx.log.info({ postId }, 'post created'); // the request id is bound already
 * getRequestId(ctx); // '6f1c...'
 */
export const REQUEST_ID: StateKey<string> = REQUEST_ID_SLOT;

/**
 * The id of the current request, or undefined when no request-id middleware runs.
 *
 * @example
 * getRequestId(ctx); // '6f1c...'
 */
export function getRequestId(ctx: Pick<RequestContext, 'get'>): string | undefined {
  return ctx.get(REQUEST_ID);
}
