import type { Clock } from '../internal.js';
import type { ClassProvider, ExistingProvider } from '../internal.js';
import type { ModuleInput } from '../internal.js';
import type { ClassToken } from '../internal.js';
import type { HmacAlgorithm, TrustedIssuerOptions } from './jwt/index.js';
import type { CredentialStore, RefreshTokenStore } from './issuing/index.js';
import type { PasswordHasher } from './password/index.js';
import type { ApiKeyStore } from './api-keys/index.js';
import type { ClientAddressOptions } from '../internal.js';
import type { SignInThrottleOptions } from './throttle/sign-in-throttle-options.js';
import type { AccountSettings } from './accounts/account-service-options.js';
import type { AccountStore } from './accounts/account-store.js';
import type { Mailer } from './mail/mailer.js';
import type { BrowserSessionOptions } from './browser/browser-options.js';

/**
 * A store given as an injectable class: a class with no constructor parameters, a decorated
 * `@Injectable()` class, or `defineProvider(Class, [deps])`; or `{ useExisting: token }` to share
 * an instance another module exports. Dependencies are resolved inside the auth module, which
 * sees the modules listed in the matching `imports`.
 *
 * @example
 * const store: StoreClass<RefreshTokenStore> = defineProvider(PgRefreshTokenStore, [DB]);
 */
export type StoreClass<T> = ClassToken<T> | ClassProvider<T> | Omit<ExistingProvider<T>, 'provide'>;

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
  /** Seconds; default 2592000 (30 days). */
  readonly refreshTokenTtl?: number;
  /** Seconds after a rotation during which replaying the old token is refused without revoking the family; default 0. */
  readonly refreshReuseGraceSeconds?: number;
  /** Password backend for sign-in; default: the process-wide default (native Argon2id on Node when available, else WASM). */
  readonly passwordHasher?: PasswordHasher;
}

/**
 * Options of machine API keys; omit them to ignore the `x-api-key` header entirely.
 *
 * @example
 * apiKeys: { store: PgApiKeyStore, imports: [DbModule], cacheSeconds: 60, scopedRoutesOnly: true }
 */
export interface ApiKeyOptions {
  readonly store: StoreClass<ApiKeyStore>;
  readonly imports?: readonly ModuleInput[];
  /**
   * @deprecated Since 0.2: give the rule once, to the app: `createApp(root, { clientAddress })`
   * (the same fields); the key's `allowedCidrs` are checked against `ctx.clientAddress`. Still
   * read for one minor version, while the app has no `clientAddress` of its own (both: the boot
   * fails). Removed in 0.3.
   */
  readonly clientIp?: ClientAddressOptions;
  /** Seconds a found key record is kept in this process; 0 (default) reads the store every time. A revoked key may be accepted for up to this long. */
  readonly cacheSeconds?: number;
  /** `touch` is called at most once per key per this many seconds; default 300. */
  readonly lastUsedIntervalSeconds?: number;
  /** When true, a key is refused (403) on every route without `RequireScopes`; public routes stay public. */
  readonly scopedRoutesOnly?: boolean;
}

/**
 * The `accounts` option of `AuthModule.forRoot`: sign-up, e-mail verification, password reset
 * and change, e-mail change, resolved through `ACCOUNT_SERVICE`. Needs `issuing`. The account
 * store is also a credential store: when `issuing.credentialStore` is omitted, sign-in reads the
 * account store; when both are given they must see the same accounts (e.g.
 * `PostgresCredentialStore` and `PostgresAccountStore` both read `tessera_accounts`).
 *
 * - `store`: `InMemoryAccountStore`, `PostgresAccountStore` (via `defineProvider`), or your own.
 * - `links` (required): a base URL or one function per link; see `AccountLinks`.
 * - `newAccountClaims` (required): the claims of a new account's access tokens.
 * - `mailer`: default `loggingMailer(LOGGER)`, which only logs (development; the module warns
 *   once at boot when it is used). Production: `smtpMailer(process.env.SMTP_URL)` or your own.
 * - `requireVerifiedEmail` (default true): an account whose address is not verified cannot sign
 *   in or refresh, and is refused with the same 401 `Invalid credentials` as a wrong password
 *   (after the same password check, so no timing tells it apart). Why by default: until the
 *   mailbox is proven, anyone can create an account in someone else's name and use it; the
 *   owner of the address recovers it with a reset. Accounts created outside sign-up (seeded,
 *   `PostgresCredentialStore.addAccount`) count as verified.
 * - `passwordPolicy`, `tokenTtl`, `templates`, `appName`, `newSubject`: see `AccountSettings`.
 *
 * @example
 * accounts: {
 *   store: defineProvider(PostgresAccountStore, [DB]), imports: [DbModule],
 *   links: 'https://app.acme.example', mailer: smtpMailer(process.env.SMTP_URL!, { from: 'Acme <no-reply@acme.example>' }),
 *   newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }),
 * }
 */
export interface AccountOptions<Claims> extends AccountSettings<Claims> {
  readonly store: StoreClass<AccountStore<Claims>>;
  readonly imports?: readonly ModuleInput[];
  readonly mailer?: Mailer;
  readonly requireVerifiedEmail?: boolean;
}

/**
 * Options of `AuthModule.forRoot`.
 *
 * @example
 * AuthModule.forRoot({ secret: process.env.AUTH_SECRET!, issuer: 'my-api', audience: 'my-api', protectAllRoutes: true });
 */
export interface AuthModuleOptions<Claims> {
  /** HMAC secret; at least 32 (HS256), 48 (HS384) or 64 (HS512) bytes of UTF-8. */
  readonly secret: string;
  readonly algorithm?: HmacAlgorithm;
  /** Expected `iss`, and signed into issued tokens. */
  readonly issuer?: string;
  /** Expected `aud` (any of them), and signed into issued tokens. */
  readonly audience?: string | readonly string[];
  /**
   * Identity providers (Auth0, Keycloak, Cognito, Entra, ...) whose access tokens are accepted
   * beside the app's own, each with its `issuer`, `audience`, keys (`jwksUrl`, `jwks` or
   * `publicKeys`) and `algorithms` (default RS256, ES256, EdDSA). A token goes to the verifier its
   * `iss` names; its claims pass the same claims schema as the app's own tokens.
   */
  readonly trustedIssuers?: readonly TrustedIssuerOptions[];
  /** Seconds of clock skew allowed on `exp`, `nbf` and `iat`, for every issuer; default 0. */
  readonly clockToleranceSeconds?: number;
  /**
   * When true, the app's own tokens must say `typ: at+jwt` (RFC 9068), as the ones it issues do.
   * By default tokens without `typ` or with `typ: JWT` are accepted too; any other `typ` never is.
   */
  readonly requireAccessTokenType?: boolean;
  /** When true, the guards and `AUTH_SERVICE` are visible in every module without importing the auth module. */
  readonly global?: boolean;
  /** When true, every route needs a credential unless marked `Public()`. */
  readonly protectAllRoutes?: boolean;
  readonly issuing?: IssuingOptions<Claims>;
  readonly apiKeys?: ApiKeyOptions;
  /**
   * Accounts for people (needs `issuing`): sign-up, e-mail verification, password reset and
   * change, e-mail change, through `ACCOUNT_SERVICE`. See `AccountOptions`.
   */
  readonly accounts?: AccountOptions<Claims>;
  /**
   * Browser sessions in cookies (needs `issuing`): the guards also accept the access-token
   * cookie, with the CSRF defence on unsafe requests, and `BROWSER_SESSIONS` answers the
   * browser's sign-in, refresh and sign-out with cookies. See `BrowserSessions`.
   */
  readonly browser?: BrowserSessionOptions;
  /**
   * Throttled sign-in (with `issuing`; on by default, in memory): failed sign-ins counted per
   * account and client address, per address and per account answer 429 with `Retry-After`, before
   * the password is checked. `false` turns it off. Give `counters` (PostgreSQL or Redis) when
   * several instances serve sign-in. See `SignInThrottleOptions` and docs/sign-in-throttling.md.
   */
  readonly signInThrottle?: SignInThrottleOptions | false;
  /** The clock for expiry, rotation and caching; default the system clock. */
  readonly clock?: Clock;
}
