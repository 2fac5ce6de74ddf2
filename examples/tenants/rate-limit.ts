import { TooManyRequestsException, type Clock, type Guard, type RequestContext } from '../../lib/index.js';
import { auth } from './claims.js';

/**
 * A fixed-window counter per key. Counting happens after authentication, keyed by the
 * verified key id, so an unauthenticated caller cannot spend another key's budget (a limiter
 * in front of authentication could only trust the header, which anyone can write).
 */
export class FixedWindowCounter {
  private readonly windows = new Map<string, { start: number; count: number }>();

  constructor(
    private readonly limit: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  /** Counts one request; returns how long to wait (ms) when over the limit, else 0. */
  hit(key: string): number {
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
  constructor(private readonly counter: FixedWindowCounter) {}

  canActivate(ctx: RequestContext): boolean {
    const key = auth.getCurrentApiKey(ctx);
    if (key === undefined) return true;
    const waitMs = this.counter.hit(key.id);
    if (waitMs > 0) {
      throw new TooManyRequestsException('This API key is over its request limit.', undefined, {
        'retry-after': String(Math.max(1, Math.ceil(waitMs / 1000))),
      });
    }
    return true;
  }
}
