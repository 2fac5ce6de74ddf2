import { TooManyRequestsException, type Clock, type Logger, type WindowedRateLimitCounter } from '../../index.js';
import type { AccountRouteBudgets, RequestBudget } from './account-route-throttle-options.js';
import type { SignInCounterFactory } from './sign-in-throttle-options.js';
import type { ThrottleKeys } from './throttle-keys.js';

/** The one message of every throttled account request: it names no address and no budget. */
export const ACCOUNT_ROUTE_THROTTLED_MESSAGE = 'Too many requests. Try again later.';

/** What a request of the account routes costs: a sign-up (a hash and a row), or a mail. */
export type AccountRouteKind = 'sign-up' | 'mail';

/**
 * What {@link AccountRouteThrottle} is built with: the sign-in throttle's keys and counter factory
 * (the app's shared counter), the budgets, the auth module's clock.
 *
 * @example
 * const settings: AccountRouteThrottleSettings = { keys: createThrottleKeys(secret), counters, budgets: DEFAULT_ACCOUNT_ROUTE_BUDGETS, clock };
 */
export interface AccountRouteThrottleSettings {
  readonly keys: ThrottleKeys;
  readonly counters: SignInCounterFactory;
  readonly budgets: AccountRouteBudgets;
  readonly clock: Clock;
  readonly logger?: Logger | undefined;
}

interface Rule {
  readonly dimension: keyof AccountRouteBudgets;
  readonly budget: RequestBudget;
  readonly counter: WindowedRateLimitCounter;
}

/**
 * Counts the requests of the account routes that hash a password, store a row or send a mail,
 * per client address and per address mailed (see `AccountRouteThrottleOptions`), and refuses
 * those over a budget with 429 and `Retry-After` before any of that work. Keys are the sign-in
 * throttle's keyed hashes (`createThrottleKeys`): a dump of the counters names no address.
 *
 * @example
 * await throttle.check('sign-up', ctx.body.email, ctx.clientAddress); // throws the 429 when over
 * await accounts.signUp(ctx.body.email, ctx.body.password);
 */
export class AccountRouteThrottle {
  readonly #keys: ThrottleKeys;
  readonly #logger: Logger | undefined;
  readonly #rules: readonly Rule[];

  constructor(settings: AccountRouteThrottleSettings) {
    this.#keys = settings.keys;
    this.#logger = settings.logger;
    const counter = (dimension: keyof AccountRouteBudgets, budget: RequestBudget): Rule => ({
      dimension,
      budget,
      counter: settings.counters({ name: `account-${dimension}-${budget.windowSeconds}s`, limit: budget.requests, windowMs: budget.windowSeconds * 1000, clock: settings.clock }),
    });
    const dimensions: readonly (keyof AccountRouteBudgets)[] = ['sign-up-client', 'mail-client', 'email'];
    this.#rules = dimensions.flatMap((dimension) => settings.budgets[dimension].map((budget) => counter(dimension, budget)));
  }

  /**
   * Counts one request of `kind` that mails `email`, from `clientAddress` (none: counted per
   * address mailed only).
   *
   * @throws TooManyRequestsException 429 with `retry-after` (whole seconds) when over any budget.
   * @throws whatever a counter throws when it cannot answer (a 503: fail closed).
   * @example
   * await throttle.check('mail', ctx.body.email, ctx.clientAddress);
   */
  async check(kind: AccountRouteKind, email: string, clientAddress: string | undefined): Promise<void> {
    const client = clientAddress === undefined || clientAddress.trim() === '' ? undefined : this.#keys.address(clientAddress);
    const clientDimension = kind === 'sign-up' ? 'sign-up-client' : 'mail-client';
    const emailKey = this.#keys.account(email);
    const planned = this.#rules.flatMap((rule) => {
      if (rule.dimension === 'email') return [{ rule, key: emailKey }];
      return rule.dimension === clientDimension && client !== undefined ? [{ rule, key: client }] : [];
    });
    const windows = await Promise.all(planned.map(({ rule, key }) => rule.counter.hitWindow(key)));
    let longest = 0;
    windows.forEach((window, i) => {
      const rule = planned[i]?.rule;
      if (window.waitMs <= 0 || rule === undefined) return;
      longest = Math.max(longest, window.waitMs);
      // Once per key and window (its first refusal), never per request: an attack must not flood the log.
      if (window.hits === rule.budget.requests + 1) {
        this.#logger?.warn({ event: 'auth.account-route.throttling-started', kind, dimension: rule.dimension, requests: rule.budget.requests, windowSeconds: rule.budget.windowSeconds }, 'Account-route throttling started');
      }
    });
    if (longest === 0) return;
    throw new TooManyRequestsException(ACCOUNT_ROUTE_THROTTLED_MESSAGE, undefined, { 'retry-after': String(Math.max(1, Math.ceil(longest / 1000))) });
  }
}
