import type { Clock, InjectionToken, ModuleInput, RateLimitCounterOptions, WindowedRateLimitCounter } from '../../index.js';
import { integerAtLeast } from '../../internal/primitives.js';

/**
 * One rule of sign-in throttling: at most `failures` failed sign-ins per key in a fixed window of
 * `windowSeconds` that opens at the first of them; past it, sign-ins for that key are answered
 * 429 until the window ends. Several tiers on one dimension make the delay grow.
 *
 * @example
 * const tier: SignInThrottleTier = { failures: 5, windowSeconds: 60 };
 */
export interface SignInThrottleTier {
  readonly failures: number;
  readonly windowSeconds: number;
}

/**
 * What a counter of sign-in throttling is built with: one counter per tier, named
 * `sign-in-{dimension}-{windowSeconds}s`, with the tier's limit and window and the auth module's clock.
 *
 * @example
 * const options: SignInCounterOptions = { name: 'sign-in-account-3600s', limit: 50, windowMs: 3_600_000, clock };
 */
export interface SignInCounterOptions extends RateLimitCounterOptions {
  readonly name: string;
  readonly clock: Clock;
}

/**
 * Builds a counter for one tier: `(options) => new RedisRateLimitCounter(redis, options)` or
 * `(options) => new PostgresRateLimitCounter(pool, options)`, so every instance shares the counts.
 *
 * @example
 * const counters: SignInCounterFactory = (options) => new RedisRateLimitCounter(redis, options);
 */
export type SignInCounterFactory = (options: SignInCounterOptions) => WindowedRateLimitCounter;

/**
 * A {@link SignInCounterFactory} built from providers: `useFactory(...inject)` answers the factory
 * (for a database pool that only the DI container has). The tokens resolve inside the auth module,
 * which sees the modules listed in `signInThrottle.imports`.
 *
 * @example
 * counters: { inject: [SQL_CLIENT], useFactory: (db: SqlClient) => (options) => new PostgresRateLimitCounter(db, options) }
 */
export interface InjectedSignInCounters {
  readonly inject: readonly InjectionToken<unknown>[];
  readonly useFactory: (...deps: never[]) => SignInCounterFactory;
}

/**
 * Options of sign-in throttling (`signInThrottle` of `AuthModule.forRoot`; on by default with
 * issuing, `false` turns it off). Failed sign-ins are counted per account and client address,
 * per address, and per account, each with tiers; see docs/sign-in-throttling.md for what the defaults allow.
 *
 * @example
 * signInThrottle: { counters: (options) => new RedisRateLimitCounter(redis, options) }
 */
export interface SignInThrottleOptions {
  /** Default: in-memory counters, for one instance (several instances each count their own; a warning says so at boot when the app's PubSub is shared). */
  readonly counters?: SignInCounterFactory | InjectedSignInCounters;
  /** Modules whose exports `counters.inject` needs. */
  readonly imports?: readonly ModuleInput[];
  /** Per account and client address (IPv6 by /64). Default 5 per minute, 10 per 15 minutes, 20 per hour. */
  readonly perAccountAndAddress?: readonly SignInThrottleTier[];
  /** Per client address, any account (password spraying). Default 30 per 5 minutes, 100 per hour. */
  readonly perAddress?: readonly SignInThrottleTier[];
  /**
   * Per account, any address (guessing from many addresses). Past it, only addresses that have
   * already failed on the account in the longest `perAccountAndAddress` window (and callers
   * without an address) are refused, so an attacker cannot lock the real user out. With no
   * `perAccountAndAddress` tier to remember failed addresses, every caller is refused. Default 50 per hour.
   */
  readonly perAccount?: readonly SignInThrottleTier[];
}

/** The tiers of one dimension of sign-in throttling. */
export type ThrottleDimension = 'account-address' | 'address' | 'account';

/** The tiers in effect, defaults applied and checked. */
export type SignInThrottleTiers = Readonly<Record<ThrottleDimension, readonly SignInThrottleTier[]>>;

/**
 * The default tiers (see docs/sign-in-throttling.md): per account and address the delay
 * grows from a minute to 15 minutes to an hour; per address and per account they bound spraying
 * and distributed guessing.
 *
 * @example
 * DEFAULT_SIGN_IN_THROTTLE_TIERS.account; // [{ failures: 50, windowSeconds: 3600 }]
 */
export const DEFAULT_SIGN_IN_THROTTLE_TIERS: SignInThrottleTiers = Object.freeze({
  'account-address': Object.freeze([
    { failures: 5, windowSeconds: 60 },
    { failures: 10, windowSeconds: 900 },
    { failures: 20, windowSeconds: 3600 },
  ]),
  address: Object.freeze([
    { failures: 30, windowSeconds: 300 },
    { failures: 100, windowSeconds: 3600 },
  ]),
  account: Object.freeze([{ failures: 50, windowSeconds: 3600 }]),
});

/**
 * The tiers of `options`, defaults for the ones not given; a RangeError naming a bad one
 * (failures and windowSeconds integers >= 1, one tier per window length in a dimension).
 *
 * @example
 * const tiers = resolveSignInThrottleTiers({ perAccount: [{ failures: 100, windowSeconds: 3600 }] });
 */
export function resolveSignInThrottleTiers(options: SignInThrottleOptions): SignInThrottleTiers {
  return {
    'account-address': checkTiers(options.perAccountAndAddress ?? DEFAULT_SIGN_IN_THROTTLE_TIERS['account-address'], 'perAccountAndAddress'),
    address: checkTiers(options.perAddress ?? DEFAULT_SIGN_IN_THROTTLE_TIERS.address, 'perAddress'),
    account: checkTiers(options.perAccount ?? DEFAULT_SIGN_IN_THROTTLE_TIERS.account, 'perAccount'),
  };
}

function checkTiers(tiers: readonly SignInThrottleTier[], name: string): readonly SignInThrottleTier[] {
  const windows = new Set<number>();
  for (const tier of tiers) {
    integerAtLeast(tier.failures, 1, `signInThrottle.${name}[].failures`);
    integerAtLeast(tier.windowSeconds, 1, `signInThrottle.${name}[].windowSeconds`);
    // The counter's name carries the window length: two tiers with one length would share counts.
    if (windows.has(tier.windowSeconds)) throw new RangeError(`signInThrottle.${name} has two tiers with windowSeconds ${tier.windowSeconds}`);
    windows.add(tier.windowSeconds);
  }
  return Object.freeze(tiers.map((tier) => Object.freeze({ failures: tier.failures, windowSeconds: tier.windowSeconds })));
}
