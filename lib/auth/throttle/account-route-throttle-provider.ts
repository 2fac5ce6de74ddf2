import { defineFactory, InMemoryRateLimitCounter, LOGGER, type Clock, type Logger, type ModuleInput, type ProviderInput, type Token } from '../../index.js';
import { AccountRouteThrottle } from './account-route-throttle.js';
import { resolveAccountRouteBudgets, type AccountRouteThrottleOptions } from './account-route-throttle-options.js';
import type { SignInCounterFactory, SignInThrottleOptions } from './sign-in-throttle-options.js';
import { createThrottleKeys } from './throttle-keys.js';

/**
 * The provider of the account routes' {@link AccountRouteThrottle} under `token`: `null` when
 * `throttle` is `false`; else on `throttle.counters`, or the sign-in throttle's counters (the
 * app's shared counter), or this process's memory. Bad budgets throw a RangeError here, at `forRoot`.
 *
 * @example
 * providers.push(accountRouteThrottleProvider(ACCOUNT_ROUTE_THROTTLE, options.routes?.throttle, options.signInThrottle, options.secret, clock));
 */
export function accountRouteThrottleProvider(token: Token<AccountRouteThrottle | null>, throttle: AccountRouteThrottleOptions | false | undefined, signIn: SignInThrottleOptions | false | undefined, secret: string, clock: Clock): ProviderInput {
  if (throttle === false) return { provide: token, useValue: null };
  const settings = throttle ?? {};
  const budgets = resolveAccountRouteBudgets(settings);
  const keys = createThrottleKeys(secret);
  const build = (logger: Logger, counters: SignInCounterFactory) => new AccountRouteThrottle({ keys, counters, budgets, clock, logger });
  const counters = settings.counters ?? (signIn === false ? undefined : signIn?.counters);
  if (counters === undefined) return defineFactory(token, [LOGGER], (logger) => build(logger, (options) => new InMemoryRateLimitCounter(options)));
  if (typeof counters === 'function') return defineFactory(token, [LOGGER], (logger) => build(logger, counters));
  return {
    provide: token,
    inject: [LOGGER, ...counters.inject],
    useFactory: ((logger: Logger, ...deps: never[]) => build(logger, counters.useFactory(...deps))) as (...deps: never[]) => AccountRouteThrottle,
  };
}

/**
 * The modules the account routes' own counters need (`throttle.imports`); none when they share
 * the sign-in throttle's, whose modules the auth module imports already.
 *
 * @example
 * imports: [...accountRouteThrottleImports(options.routes?.throttle)]
 */
export function accountRouteThrottleImports(throttle: AccountRouteThrottleOptions | false | undefined): readonly ModuleInput[] {
  return throttle === false || throttle?.counters === undefined ? [] : (throttle.imports ?? []);
}
