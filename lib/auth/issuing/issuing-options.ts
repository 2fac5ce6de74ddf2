import type { ModuleInput } from '../../internal.js';
import type { PasswordHasher } from '../password/index.js';
import type { StoreClass } from '../shared/store-class.js';
import type { CredentialStore } from './credential-store.js';
import type { RefreshTokenStore } from './refresh-token-store.js';

/**
 * Options of token issuing; omit them for a verify-only auth module.
 *
 * @example
 * issuing: { credentialStore: AccountsStore, refreshTokenStore: InMemoryRefreshTokenStore, imports: [DbModule] }
 */
export interface IssuingOptions<Claims> {
  readonly imports?: readonly ModuleInput[];
  /** Where sign-in finds accounts; required unless `accounts` is given (sign-in then reads the account store). */
  readonly credentialStore?: StoreClass<CredentialStore<Claims>>;
  readonly refreshTokenStore: StoreClass<RefreshTokenStore>;
  /** Seconds; default 900. */
  readonly accessTokenTtl?: number;
  /** Seconds a refresh token lives from its issue, the idle lifetime; default 2592000 (30 days). */
  readonly refreshTokenTtl?: number;
  /**
   * Seconds a session lives from its sign-in however often it is refreshed, the absolute
   * lifetime; default 2592000 (30 days). Browser sessions' cookies end with it too.
   */
  readonly sessionMaxAge?: number;
  /** Seconds after a rotation during which replaying the old token is refused without revoking the family; default 0. */
  readonly refreshReuseGraceSeconds?: number;
  /** Password backend for sign-in; default: the process-wide default (native Argon2id on Node when available, else WASM). */
  readonly passwordHasher?: PasswordHasher;
}
