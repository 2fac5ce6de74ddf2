import { defineFactory, InMemoryRateLimitCounter, LOGGER, PUB_SUB, type Clock, type Logger, type ProviderInput, type PubSub, type Token } from '../../index.js';
import { AuthConfigError } from '../credentials/jwt/index.js';
import { SignInThrottle } from './sign-in-throttle.js';
import { resolveSignInThrottleTiers, type SignInCounterFactory, type SignInThrottleOptions } from './sign-in-throttle-options.js';
import { createThrottleKeys } from './throttle-keys.js';
import type { SecurityEventSink } from '../events/security-event.js';

/** The counters when none are given: this process's memory. */
const inMemoryCounters: SignInCounterFactory = (options) => new InMemoryRateLimitCounter(options);

/**
 * The provider of the auth module's {@link SignInThrottle} under `token`: `null` when
 * `signInThrottle` is `false`, else a throttle keyed by `secret` (see `createThrottleKeys`) on
 * the given counters or in-memory ones. Bad tiers throw a RangeError here, at `forRoot`. With
 * in-memory counters and a shared PubSub engine (one that reports `listening`: the app runs, or
 * is ready to run, several instances), a warning at boot says that each instance counts alone.
 *
 * @example
 * providers.push(signInThrottleProvider(SIGN_IN_THROTTLE, options.signInThrottle, options.secret, clock, SECURITY_EVENTS));
 */
export function signInThrottleProvider(token: Token<SignInThrottle | null>, options: SignInThrottleOptions | false | undefined, secret: string, clock: Clock, securityEvents: Token<SecurityEventSink>): ProviderInput {
  if (options === false) return { provide: token, useValue: null };
  const settings = options ?? {};
  const tiers = resolveSignInThrottleTiers(settings);
  const keys = createThrottleKeys(secret);
  const build = (logger: Logger, events: SecurityEventSink, counters: SignInCounterFactory) => new SignInThrottle({ keys, counters, tiers, clock, logger, securityEvents: events });
  const counters = settings.counters;
  if (counters === undefined) {
    return defineFactory(token, [LOGGER, securityEvents, PUB_SUB], (logger, events, pubSub) => {
      warnIfShared(logger, pubSub);
      return build(logger, events, inMemoryCounters);
    });
  }
  if (typeof counters === 'function') return defineFactory(token, [LOGGER, securityEvents], (logger, events) => build(logger, events, counters));
  return {
    provide: token,
    inject: [LOGGER, securityEvents, ...counters.inject],
    useFactory: ((logger: Logger, events: SecurityEventSink, ...deps: never[]) => build(logger, events, counters.useFactory(...deps))) as (...deps: never[]) => SignInThrottle,
  };
}

function warnIfShared(logger: Logger, pubSub: PubSub): void {
  if (typeof pubSub.listening !== 'function') return;
  logger.warn(
    { event: 'auth.sign-in.throttle-in-memory' },
    'signInThrottle counts failed sign-ins in this process only, while the app shares a PubSub engine: with several instances each counts its own, allowing that many times the guesses. Give signInThrottle.counters a PostgresRateLimitCounter or RedisRateLimitCounter.',
  );
}

/**
 * Throws `AuthConfigError` for `signInThrottle` options without `issuing` (nothing would sign in
 * to throttle), and a RangeError for bad tiers: at `forRoot`, not at the first sign-in.
 *
 * @example
 * checkSignInThrottleOptions(options);
 */
export function checkSignInThrottleOptions(options: { readonly issuing?: unknown; readonly signInThrottle?: SignInThrottleOptions | false | undefined }): void {
  const throttle = options.signInThrottle;
  if (throttle === undefined || throttle === false) return;
  if (options.issuing === undefined) throw new AuthConfigError('signInThrottle needs issuing: it throttles the sign-ins issuing answers');
  resolveSignInThrottleTiers(throttle);
}
