import type { ModuleInput } from '../../../index.js';
import type { PasswordHasher } from '../../credentials/password/index.js';
import type { StoreClass } from '../../shared/store-class.js';
import type { CredentialStore } from './credential-store.js';
import type { RefreshTokenStore } from './refresh-token-store.js';
import type { TokenLifetimeOptions } from './token-issuing-options.js';

/**
 * Options of token issuing; omit them for a verify-only auth module. The token lifetimes
 * (`accessTokenTtl`, `refreshTokenTtl`, `sessionMaxAge`, `refreshReuseGraceSeconds`) are `TokenLifetimeOptions`,
 * the part shared with `TokenIssuingService`'s constructor.
 *
 * @example
 * issuing: { credentialStore: AccountsStore, refreshTokenStore: InMemoryRefreshTokenStore, imports: [DbModule] }
 */
export type IssuingOptions<Claims> = TokenLifetimeOptions & IssuingModuleParts<Claims>;

/**
 * What only the `issuing` option of `AuthModule.forRoot` says (beside the token lifetimes): the
 * store classes, their module imports and the password backend.
 *
 * @example
 * const parts: IssuingModuleParts<Claims> = { refreshTokenStore: InMemoryRefreshTokenStore };
 */
export interface IssuingModuleParts<Claims> {
  readonly imports?: readonly ModuleInput[];
  /** Where sign-in finds accounts; required unless `accounts` is given (sign-in then reads the account store). */
  readonly credentialStore?: StoreClass<CredentialStore<Claims>>;
  readonly refreshTokenStore: StoreClass<RefreshTokenStore>;
  /** Password backend for sign-in; default: the process-wide default (native Argon2id on Node when available, else WASM). */
  readonly passwordHasher?: PasswordHasher;
}
