import type { InjectionToken } from '../di/token.js';
import type { RequestContext } from './request-context.js';

/**
 * Wraps a route handler: runs code before it, calls `next()` to run it, and may transform the
 * value it returns (before it becomes JSON) or the error it throws.
 *
 * @example
 * class Envelope implements Interceptor {
 *   async intercept(ctx: RequestContext, next: () => Promise<unknown>) { return { data: await next() }; }
 * }
 */
export interface Interceptor {
  intercept(ctx: RequestContext, next: () => Promise<unknown>): unknown;
}

/** A token (usually the interceptor class itself) that resolves to an interceptor. */
export type InterceptorToken = InjectionToken<Interceptor>;
