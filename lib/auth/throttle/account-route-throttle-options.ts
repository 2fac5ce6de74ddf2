import type { ModuleInput } from '../../index.js';
import { integerAtLeast } from '../../internal/primitives.js';
import type { InjectedSignInCounters, SignInCounterFactory } from './sign-in-throttle-options.js';

/**
 * At most `requests` requests per key in a fixed window of `windowSeconds` that opens at the
 * first of them; past it the route answers 429 with `Retry-After` until the window ends.
 *
 * @example
 * const budget: RequestBudget = { requests: 10, windowSeconds: 600 };
 */
export interface RequestBudget {
  readonly requests: number;
  readonly windowSeconds: number;
}

/**
 * Throttles of the mounted account routes that cost the server a password hash and a row
 * (sign-up) or send a mail (sign-up, forgot password, resend verification, e-mail change):
 * `routes.throttle` of `AuthModule.forRoot`. Every request is counted (not only failures), before
 * anything is hashed, stored or mailed, per client address (`ctx.clientAddress`, IPv6 by /64;
 * requests without one are counted per address mailed only) and per address mailed (in the form
 * accounts compare it, `normalizeIdentifier`). A count is the same whether or not the address has
 * an account, so a 429 tells nobody who has one.
 *
 * @example
 * routes: { accounts: true, throttle: { signUpPerClient: [{ requests: 5, windowSeconds: 3600 }] } }
 */
export interface AccountRouteThrottleOptions {
  /**
   * Where the counts live: default `signInThrottle.counters` (the app's shared counter: PostgreSQL
   * or Redis, so every instance counts together), else this process's memory.
   */
  readonly counters?: SignInCounterFactory | InjectedSignInCounters;
  /** Modules whose exports `counters.inject` needs. */
  readonly imports?: readonly ModuleInput[];
  /** Sign-ups per client address. Default 10 per 10 minutes and 80 per day. */
  readonly signUpPerClient?: readonly RequestBudget[];
  /** Forgot-password, resend-verification and e-mail-change requests per client address. Default 20 per 10 minutes and 200 per day. */
  readonly mailPerClient?: readonly RequestBudget[];
  /** Requests that mail one address (sign-up and the mail routes together), per address. Default 10 per hour. */
  readonly perEmail?: readonly RequestBudget[];
}

/** The budgets in effect, by what they count. */
export interface AccountRouteBudgets {
  readonly 'sign-up-client': readonly RequestBudget[];
  readonly 'mail-client': readonly RequestBudget[];
  readonly email: readonly RequestBudget[];
}

/**
 * The default budgets (see {@link AccountRouteThrottleOptions}): a person signs up once and asks
 * for a few mails; an office behind one address still gets 10 sign-ups per 10 minutes.
 *
 * @example
 * DEFAULT_ACCOUNT_ROUTE_BUDGETS.email; // [{ requests: 10, windowSeconds: 3600 }]
 */
export const DEFAULT_ACCOUNT_ROUTE_BUDGETS: AccountRouteBudgets = Object.freeze({
  'sign-up-client': Object.freeze([Object.freeze({ requests: 10, windowSeconds: 600 }), Object.freeze({ requests: 80, windowSeconds: 86_400 })]),
  'mail-client': Object.freeze([Object.freeze({ requests: 20, windowSeconds: 600 }), Object.freeze({ requests: 200, windowSeconds: 86_400 })]),
  email: Object.freeze([Object.freeze({ requests: 10, windowSeconds: 3_600 })]),
});

/**
 * The budgets of `options`, defaults for those not given; a RangeError naming a bad one (integers
 * of at least 1, one budget per window length in a list).
 *
 * @example
 * resolveAccountRouteBudgets({ perEmail: [{ requests: 3, windowSeconds: 3600 }] });
 */
export function resolveAccountRouteBudgets(options: AccountRouteThrottleOptions): AccountRouteBudgets {
  return Object.freeze({
    'sign-up-client': checkBudgets(options.signUpPerClient ?? DEFAULT_ACCOUNT_ROUTE_BUDGETS['sign-up-client'], 'signUpPerClient'),
    'mail-client': checkBudgets(options.mailPerClient ?? DEFAULT_ACCOUNT_ROUTE_BUDGETS['mail-client'], 'mailPerClient'),
    email: checkBudgets(options.perEmail ?? DEFAULT_ACCOUNT_ROUTE_BUDGETS.email, 'perEmail'),
  });
}

function checkBudgets(budgets: readonly RequestBudget[], name: string): readonly RequestBudget[] {
  const windows = new Set<number>();
  for (const budget of budgets) {
    integerAtLeast(budget.requests, 1, `routes.throttle.${name}[].requests`);
    integerAtLeast(budget.windowSeconds, 1, `routes.throttle.${name}[].windowSeconds`);
    // The counter's name carries the window length: two budgets with one length would share counts.
    if (windows.has(budget.windowSeconds)) throw new RangeError(`routes.throttle.${name} has two budgets with windowSeconds ${budget.windowSeconds}`);
    windows.add(budget.windowSeconds);
  }
  return Object.freeze(budgets.map((budget) => Object.freeze({ requests: budget.requests, windowSeconds: budget.windowSeconds })));
}

