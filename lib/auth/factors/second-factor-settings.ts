import type { Clock } from '../../index.js';
import type { SecurityEventSink } from '../events/security-event.js';
import type { SignInThrottle } from '../throttle/sign-in-throttle.js';
import type { PasskeyOptions } from './passkey-ceremonies.js';
import type { SecretBox } from './secret-box.js';
import type { SecondFactorStore } from './second-factor-store.js';

/**
 * Construction settings of `SecondFactorService` (the auth module builds it from `secondFactors`).
 *
 * @example
 * new SecondFactorService({ store: new InMemorySecondFactorStore(), box: await SecretBox.fromKeys([key]), clock: systemClock, totpIssuer: 'Acme', throttle: null });
 */
export interface SecondFactorSettings {
  readonly store: SecondFactorStore;
  readonly box: SecretBox;
  readonly clock: Clock;
  /** The issuer name authenticator apps show beside the account. */
  readonly totpIssuer: string;
  /** Seconds a pending sign-in waits for its factor; default 300. */
  readonly pendingSignInSeconds?: number | undefined;
  /** Failed factors are counted as failed sign-ins on these counters (key `second-factor` + subject); null: not throttled. */
  readonly throttle: SignInThrottle | null;
  /** Omitted: no passkeys. */
  readonly passkeys?: PasskeyOptions | undefined;
  /** Where factor changes and refusals are recorded (the module's `SECURITY_EVENTS`); default none. */
  readonly securityEvents?: SecurityEventSink | undefined;
}
