import type { InjectionToken } from '../di/token.js';
import type { RequestContext } from './request-context.js';

/**
 * Decides whether a request may reach its handler. `false` answers 403; a thrown
 * HttpException answers with its own status. Guards are resolved through DI.
 *
 * @example
 * class ApiKeyPresent implements Guard {
 *   canActivate(ctx: RequestContext) { return ctx.header('x-api-key') !== null; }
 * }
 */
export interface Guard {
  canActivate(ctx: RequestContext): boolean | Promise<boolean>;
}

/** A token (usually the guard class itself) that resolves to a guard. */
export type GuardToken = InjectionToken<Guard>;
