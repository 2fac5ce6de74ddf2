import { isHttpException, TooManyRequestsException, type Clock, type Logger, type RateLimitWindow, type WindowedRateLimitCounter } from '../../index.js';
import { recordSignInThrottled, recordSignInThrottlingStarted } from '../shared/auth-telemetry.js';
import type { SecurityEventSink } from '../events/security-event.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { SignInCounterFactory, SignInThrottleTier, SignInThrottleTiers, ThrottleDimension } from './sign-in-throttle-options.js';
import type { ThrottleKeys } from './throttle-keys.js';

/** The one message of every throttled sign-in: it names no dimension, account or address. */
export const SIGN_IN_THROTTLED_MESSAGE = 'Too many failed sign-ins. Try again later.';

/**
 * The dependencies {@link SignInThrottle} is built with (the auth module wires them from the
 * user's `signInThrottle` options).
 *
 * @example
 * const deps: SignInThrottleDeps = { keys: createThrottleKeys(secret), counters: (o) => new InMemoryRateLimitCounter(o), tiers: DEFAULT_SIGN_IN_THROTTLE_TIERS, clock: systemClock };
 */
export interface SignInThrottleDeps {
  readonly keys: ThrottleKeys;
  readonly counters: SignInCounterFactory;
  readonly tiers: SignInThrottleTiers;
  readonly clock: Clock;
  /** Told (warn) when a failure reaches a threshold; the line carries an 8-character prefix of the hashed key at most. */
  readonly logger?: Logger | undefined;
  /** Told each refused attempt (`sign-in.throttled`); default: nothing is recorded. */
  readonly securityEvents?: SecurityEventSink | undefined;
}

interface Rule {
  readonly dimension: ThrottleDimension;
  readonly tier: SignInThrottleTier;
  readonly counter: WindowedRateLimitCounter;
}

interface Hit {
  readonly rule: Rule;
  readonly key: string;
  readonly window: RateLimitWindow;
}

/**
 * Throttles password guessing. Each sign-in is counted as a failure on every tier of its keys
 * BEFORE the password is checked, so a refused attempt costs no Argon2id and concurrent guesses
 * cannot all pass a check made before any was counted; the count is taken back (`release`) when
 * the attempt was refused, succeeded, or failed for another reason than its credentials (a store
 * outage). So the counts are the failed sign-ins, plus those in flight.
 *
 * The keys (see `createThrottleKeys`): the account (its normalised identifier, whether or not it
 * exists), the client address (IPv6 by /64), and the pair. A caller without an address is counted
 * on the account alone. Refused, with 429 and `Retry-After` (seconds, rounded up), when:
 * - the pair or the address is over one of its tiers;
 * - the account is over one of its tiers AND the caller's address has already failed on it in the
 *   pair's longest window (or the caller has no address): an address with no failure on the
 *   account still gets its password checked, so an attacker spending the account's budget from
 *   elsewhere cannot lock the real user out, while each attacking address gets one guess per
 *   window. The wait ends when either window does.
 * A refusal reads the same for existing and unknown accounts: nothing here reads the account.
 *
 * @example
 * const throttle = new SignInThrottle({ keys, counters: (o) => new InMemoryRateLimitCounter(o), tiers: DEFAULT_SIGN_IN_THROTTLE_TIERS, clock });
 * const pair = await throttle.attempt(identifier, context, () => issuing.signIn(identifier, password, context));
 */
export class SignInThrottle {
  readonly #keys: ThrottleKeys;
  readonly #clock: Clock;
  readonly #logger: Logger | undefined;
  readonly #events: SecurityEventSink | undefined;
  readonly #rules: readonly Rule[];
  /** The pair tier whose window remembers that an address failed on an account (the longest). */
  readonly #pairMemory: Rule | undefined;

  constructor(deps: SignInThrottleDeps) {
    this.#keys = deps.keys;
    this.#clock = deps.clock;
    this.#logger = deps.logger;
    this.#events = deps.securityEvents;
    const dimensions: readonly ThrottleDimension[] = ['account-address', 'address', 'account'];
    this.#rules = dimensions.flatMap((dimension) =>
      deps.tiers[dimension].map((tier) => ({
        dimension,
        tier,
        counter: deps.counters({ name: `sign-in-${dimension}-${tier.windowSeconds}s`, limit: tier.failures, windowMs: tier.windowSeconds * 1000, clock: deps.clock }),
      })),
    );
    this.#pairMemory = this.#rules.filter((rule) => rule.dimension === 'account-address').sort((a, b) => b.tier.windowSeconds - a.tier.windowSeconds)[0];
  }

  /**
   * Runs `signIn` unless the caller is throttled; counts it as a failure when it throws a 401.
   *
   * @throws TooManyRequestsException 429 with `retry-after` when throttled (`signIn` not called).
   * @throws whatever the counters throw when they cannot answer (a 503: fail closed).
   * @example
   * await throttle.attempt('alice@acme.test', { clientAddress: '203.0.113.7' }, () => issuing.signIn(id, password, context));
   */
  async attempt<T>(identifier: string, context: SignInContext | undefined, signIn: () => Promise<T>): Promise<T> {
    const account = this.#keys.account(identifier);
    const clientAddress = context?.clientAddress;
    const address = clientAddress === undefined || clientAddress.trim() === '' ? undefined : this.#keys.address(clientAddress);
    const hits = await this.#count(account, address);
    const refusal = this.#refusal(hits, address !== undefined);
    if (refusal !== undefined) {
      await this.#release(hits);
      recordSignInThrottled(refusal.dimension);
      this.#events?.record({ type: 'sign-in.throttled', dimension: refusal.dimension, clientAddress });
      throw new TooManyRequestsException(SIGN_IN_THROTTLED_MESSAGE, undefined, { 'retry-after': String(Math.max(1, Math.ceil(refusal.waitMs / 1000))) });
    }
    let result: T;
    try {
      result = await signIn();
    } catch (error) {
      if (isHttpException(error) && error.status === 401) this.#reportThresholds(hits);
      else await this.#release(hits);
      throw error;
    }
    await this.#release(hits);
    return result;
  }

  /** One hit on every tier of the caller's keys, at once; if any counter fails, the others are taken back and its error thrown. */
  async #count(account: string, address: string | undefined): Promise<readonly Hit[]> {
    const keyOf = (dimension: ThrottleDimension): string | undefined => (dimension === 'account' ? account : address === undefined ? undefined : dimension === 'address' ? address : `${account}${address}`);
    const planned = this.#rules.flatMap((rule) => {
      const key = keyOf(rule.dimension);
      return key === undefined ? [] : [{ rule, key }];
    });
    const settled = await Promise.allSettled(planned.map(({ rule, key }) => rule.counter.hitWindow(key)));
    const hits: Hit[] = [];
    let failure: PromiseRejectedResult | undefined;
    settled.forEach((outcome, i) => {
      const { rule, key } = planned[i] as { rule: Rule; key: string };
      if (outcome.status === 'fulfilled') hits.push({ rule, key, window: outcome.value });
      else failure ??= outcome;
    });
    if (failure !== undefined) {
      await this.#release(hits);
      throw failure.reason;
    }
    return hits;
  }

  /** The longest wait among the tiers that refuse this attempt (see the class comment), or undefined. */
  #refusal(hits: readonly Hit[], hasAddress: boolean): { dimension: ThrottleDimension; waitMs: number } | undefined {
    const now = Math.floor(this.#clock.now());
    const memory = hits.find((hit) => hit.rule === this.#pairMemory);
    let refusal: { dimension: ThrottleDimension; waitMs: number } | undefined;
    for (const { rule, window } of hits) {
      if (window.waitMs <= 0) continue;
      let waitMs = window.waitMs;
      if (rule.dimension === 'account' && hasAddress && memory !== undefined) {
        // Over the account's budget: refuse only an address that already failed on it (its hit
        // is not the pair window's only one), until that memory or the account window ends.
        if (memory.window.hits <= 1) continue;
        waitMs = Math.min(waitMs, memory.window.resetAtMs - now);
      }
      if (refusal === undefined || waitMs > refusal.waitMs) refusal = { dimension: rule.dimension, waitMs };
    }
    return refusal;
  }

  /** Takes back this attempt's hits; a counter that cannot leaves the count (the safe side). */
  async #release(hits: readonly Hit[]): Promise<void> {
    await Promise.all(hits.map(({ rule, key, window }) => rule.counter.release(key, window).catch(() => undefined)));
  }

  /** Tells telemetry and the log about each threshold this failure reached (the next attempt on that key is refused). */
  #reportThresholds(hits: readonly Hit[]): void {
    for (const { rule, key, window } of hits) {
      if (window.hits !== rule.tier.failures) continue;
      recordSignInThrottlingStarted(rule.dimension);
      this.#logger?.warn(
        { event: 'auth.sign-in.throttling-started', dimension: rule.dimension, key: key.slice(0, 8), failures: rule.tier.failures, windowSeconds: rule.tier.windowSeconds },
        'Sign-in throttling started',
      );
    }
  }
}
