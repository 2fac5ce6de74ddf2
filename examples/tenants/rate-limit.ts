import { createToken, TooManyRequestsException, type Clock, type Guard, type RateLimitCounter, type RequestContext } from '../../lib/index.js';
import { recordRateLimited } from '../../lib/auth/index.js';
import { auth } from './claims.js';

/** The counter the rate-limit guard uses: in memory (one process) or PostgreSQL (shared by instances). */
export const RATE_LIMIT_COUNTER = createToken<RateLimitCounter>('RateLimitCounter');

/**
 * A fixed-window counter per key. Counting happens after authentication, keyed by the
 * verified key id, so an unauthenticated caller cannot spend another key's budget (a limiter
 * in front of authentication could only trust the header, which anyone can write).
 */
export class FixedWindowCounter implements RateLimitCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /**
   * Counts one request; resolves how long to wait (ms) when over the limit, else 0. The whole
   * read-count-write runs synchronously before the promise settles, so it is atomic in-process.
   */
  async hit(key: string): Promise<number> {
    const now = this.clock.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, count: 0 };
      this.windows.set(key, window);
      // Bound memory: drop windows that ended (cheap amortised sweep).
      if (this.windows.size > 10_000) for (const [k, w] of this.windows) if (now - w.start >= this.windowMs) this.windows.delete(k);
    }
    window.count += 1;
    return window.count > this.limit ? window.start + this.windowMs - now : 0;
  }
}

/**
 * Answers 429 with `retry-after` (whole seconds, rounded up) when an API key is over its limit.
 * Token-authenticated requests are not counted here.
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
