import { createToken, TooManyRequestsException, type Guard, type RateLimitCounter, type RequestContext } from '../../lib/index.js';
import { recordRateLimited } from '../../lib/auth/index.js';
import { auth } from './claims.js';

/** The counter the rate-limit guard uses: in memory (one process), or PostgreSQL or Redis (shared by instances). */
export const RATE_LIMIT_COUNTER = createToken<RateLimitCounter>('RateLimitCounter');

/**
 * Answers 429 with `retry-after` (whole seconds, rounded up) when an API key is over its limit.
 * Counting happens after authentication, keyed by the verified key id, so an unauthenticated
 * caller cannot spend another key's budget (a limiter in front of authentication could only
 * trust the header, which anyone can write). Token-authenticated requests are not counted here.
 */
export class ApiKeyRateLimitGuard implements Guard {
  constructor(private readonly counter: RateLimitCounter) {}

  canActivate(ctx: RequestContext): boolean | Promise<boolean> {
    const key = auth.getCurrentApiKey(ctx);
    // Token requests are not counted and pay for no promise.
    if (key === undefined) return true;
    return this.check(key.id);
  }

  private async check(keyId: string): Promise<boolean> {
    // A counter that cannot answer (database down) throws its 503: fail closed, never unlimited.
    const waitMs = await this.counter.hit(keyId);
    if (waitMs > 0) {
      recordRateLimited();
      throw new TooManyRequestsException('This API key is over its request limit.', undefined, {
        'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
    return true;
  }
}
