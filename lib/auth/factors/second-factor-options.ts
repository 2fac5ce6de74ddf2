import type { ModuleInput } from '../../index.js';
import type { StoreClass } from '../shared/store-class.js';
import type { PasskeyOptions } from './passkey-ceremonies.js';
import type { SecondFactorStore } from './second-factor-store.js';

/**
 * `secondFactors` of `AuthModule.forRoot` (needs `issuing`): TOTP, recovery codes and, with
 * `passkeys`, WebAuthn; every sign-in path then asks for the factor once a person enabled one.
 *
 * @example
 * secondFactors: {
 *   store: defineProvider(PostgresSecondFactorStore, [DB]), imports: [DbModule],
 *   encryptionKeys: [process.env.FACTOR_KEY!], totpIssuer: 'Acme',
 *   passkeys: { rpId: 'acme.test', rpName: 'Acme', origins: ['https://acme.test'] },
 * }
 */
export interface SecondFactorOptions {
  readonly store: StoreClass<SecondFactorStore>;
  /** Modules the store needs to see. */
  readonly imports?: readonly ModuleInput[];
  /**
   * AES-256-GCM keys sealing the TOTP secrets at rest (and keying the recovery-code digests),
   * each 32 random bytes in base64url (`openssl rand -base64 32`). The first seals; all open.
   * Keep it apart from the database and from `secret`. Changing the first key makes the
   * recovery codes generated under the old one stop matching (people regenerate them).
   */
  readonly encryptionKeys: readonly string[];
  /** The name authenticator apps show beside the account (the app's). */
  readonly totpIssuer: string;
  /** Seconds a pending sign-in waits for its second factor; default 300. */
  readonly pendingSignInSeconds?: number;
  /** The default window of `StepUpGuard`, seconds; default 300. */
  readonly stepUpSeconds?: number;
  /** Passkeys (WebAuthn) for this relying party; omitted: none. Needs the optional peer @simplewebauthn/server. */
  readonly passkeys?: PasskeyOptions;
}
