import { createToken, defineFactory, defineProvider, type Clock, type Guard, type ProviderInput, type Token } from '../../index.js';
import type { AuthRuntime } from './auth-runtime.js';
import type { SecondFactorGate } from '../sessions/issuing/second-factor-gate.js';
import type { StoreClass } from '../shared/store-class.js';
import { tracedStore } from '../shared/auth-telemetry.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';
import { SecretBox } from '../factors/secret-box.js';
import type { SecondFactorOptions } from '../factors/second-factor-options.js';
import { SecondFactorService } from '../factors/second-factor-service.js';
import type { SecondFactorStore } from '../factors/second-factor-store.js';
import type { StepUpSettings } from '../factors/step-up.js';
import type { SecurityEventSink } from '../events/security-event.js';

/** The auth module's second-factor tokens. */
export interface SecondFactorTokens {
  readonly store: Token<SecondFactorStore>;
  /** The service as the issuing service sees it (the gate); null without `secondFactors`. */
  readonly gate: Token<SecondFactorGate | null>;
  /** `SECOND_FACTORS`: the service, resolved only once the issuing service is attached to it. */
  readonly service: Token<SecondFactorService>;
}

/** What the providers need of the rest of the auth module. */
export interface SecondFactorWiring {
  readonly signInThrottle: Token<SignInThrottle | null>;
  readonly authService: Token<unknown>;
  readonly runtime: Token<AuthRuntime<unknown>>;
  readonly stepUpGuard: new (factors: SecondFactorService, settings: StepUpSettings) => Guard;
  readonly toProvider: <T>(token: Token<T>, store: StoreClass<T>) => ProviderInput;
  readonly clock: Clock;
  readonly securityEvents: Token<SecurityEventSink>;
}

/**
 * The providers of `secondFactors`: the store, the service (gate) built with the sealing keys and
 * the sign-in throttle, `SECOND_FACTORS` (resolved after `AUTH_SERVICE`, whose construction hands
 * the gate its session start) and `StepUpGuard`. Without `secondFactors`, only the gate, as null.
 *
 * @example
 * providers.push(...secondFactorProviders(options.secondFactors, tokens, wiring));
 */
export function secondFactorProviders(options: SecondFactorOptions | undefined, tokens: SecondFactorTokens, wiring: SecondFactorWiring): ProviderInput[] {
  if (options === undefined) return [{ provide: tokens.gate, useValue: null }];
  const STEP_UP_SETTINGS = createToken<StepUpSettings>('StepUpSettings');
  return [
    wiring.toProvider(tokens.store, options.store),
    defineFactory(tokens.gate, [tokens.store, wiring.signInThrottle, wiring.securityEvents], async (store, throttle, securityEvents) => {
      const box = await SecretBox.fromKeys(options.encryptionKeys);
      return new SecondFactorService({
        store: tracedStore(store, 'SecondFactorStore'),
        box,
        clock: wiring.clock,
        totpIssuer: options.totpIssuer,
        pendingSignInSeconds: options.pendingSignInSeconds,
        throttle,
        passkeys: options.passkeys,
        securityEvents,
      });
    }),
    // Depends on AUTH_SERVICE so that it resolves only after the issuing service attached itself.
    defineFactory(tokens.service, [tokens.gate, wiring.authService], (gate) => gate as SecondFactorService),
    defineFactory(STEP_UP_SETTINGS, [wiring.runtime], (runtime) => ({
      defaultSeconds: options.stepUpSeconds ?? 300,
      clock: wiring.clock,
      tokenFacts: (claims) => runtime.tokenFacts(claims),
    })),
    defineProvider(wiring.stepUpGuard, [tokens.service, STEP_UP_SETTINGS]),
  ];
}
