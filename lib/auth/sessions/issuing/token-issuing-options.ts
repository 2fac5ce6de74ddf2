import type { Clock } from '../../../index.js';
import type { PasswordHasher } from '../../credentials/password/index.js';
import type { AccessTokenSigner } from './access-token-signer.js';
import type { CredentialStore } from './credential-store.js';
import type { PasswordVerifier } from './password-verifier.js';
import type { RefreshTokenStore } from './refresh-token-store.js';
import type { SessionRevocationListener } from '../state/session-revocation-listener.js';
import type { ClaimsSchema } from './validate-claims.js';
import type { SecondFactorGate } from './second-factor-gate.js';
import type { SecurityEventSink } from '../../events/security-event.js';

/** Default access-token lifetime, seconds (15 minutes). @example DEFAULT_ACCESS_TOKEN_TTL_SECONDS; // 900 */
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 900;
/** Default refresh-token lifetime, seconds (30 days). @example DEFAULT_REFRESH_TOKEN_TTL_SECONDS; // 2592000 */
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 2_592_000;
/**
 * Default absolute session lifetime, seconds (30 days): a session ends this long after its
 * sign-in however often it is refreshed (ASVS 5.0 7.3.2). 30 days is NIST SP 800-63B's bound on
 * reauthentication at AAL1 and the default idle lifetime (`refreshTokenTtl`), so by default a
 * session ends when it has idled 30 days or, at the latest, 30 days after it started; an app
 * holding more (AAL2) sets a shorter one, such as a day.
 *
 * @example DEFAULT_SESSION_MAX_AGE_SECONDS; // 2592000
 */
export const DEFAULT_SESSION_MAX_AGE_SECONDS = 2_592_000;
/** Default reuse grace window, seconds: off. @example DEFAULT_REFRESH_REUSE_GRACE_SECONDS; // 0 */
export const DEFAULT_REFRESH_REUSE_GRACE_SECONDS = 0;

/**
 * How long tokens live, as the user writes it: shared by the `issuing` option of
 * `AuthModule.forRoot` (`IssuingOptions`) and `TokenIssuingService`'s constructor
 * (`TokenIssuingServiceOptions`). Every `undefined` takes the default, so the auth module can
 * pass its own optional values straight through; {@link resolveTokenLifetimes} applies them.
 *
 * @example
 * const lifetimes: TokenLifetimeOptions = { accessTokenTtl: 600, refreshReuseGraceSeconds: 30 };
 */
export interface TokenLifetimeOptions {
  /**
   * Seconds; default 900. The signer computes access-token expiry itself; this value is
   * validated and exposed (`settings.accessTokenTtl`) so one options object describes both.
   */
  readonly accessTokenTtl?: number | undefined;
  /** Seconds a refresh token lives from its issue (the idle lifetime); default 2592000 (30 days). */
  readonly refreshTokenTtl?: number | undefined;
  /**
   * Seconds a session lives from its sign-in, however often it is refreshed (the absolute
   * lifetime); default 2592000 (30 days). No refresh token or access token of the session
   * outlives it.
   */
  readonly sessionMaxAge?: number | undefined;
  /** Seconds after a rotation during which a replay of the old token is refused without revoking anything; default 0 (off). */
  readonly refreshReuseGraceSeconds?: number | undefined;
}

/**
 * Construction options of `TokenIssuingService`: the token lifetimes and the dependencies.
 *
 * @example
 * const options: TokenIssuingServiceOptions<Claims> = {
 *   claimsSchema: Claims, credentialStore: accounts, refreshTokenStore: new InMemoryRefreshTokenStore(),
 *   accessTokens: { sign: async (claims, sub) => signer.sign({ ...claims, sub }, { ttlSeconds: 900, type: 'access' }) },
 * };
 */
export type TokenIssuingServiceOptions<Claims> = TokenLifetimeOptions & TokenIssuingServiceDeps<Claims>;

/**
 * The dependencies `TokenIssuingService` is built with.
 *
 * @example
 * const deps: TokenIssuingServiceDeps<Claims> = { claimsSchema: Claims, credentialStore: accounts, refreshTokenStore: new InMemoryRefreshTokenStore(), accessTokens };
 */
export interface TokenIssuingServiceDeps<Claims> {
  readonly claimsSchema: ClaimsSchema<Claims>;
  readonly credentialStore: CredentialStore<Claims>;
  readonly refreshTokenStore: RefreshTokenStore;
  readonly accessTokens: AccessTokenSigner<Claims>;
  /** Default: the system clock. */
  readonly clock?: Clock | undefined;
  /** Default: Argon2id via `passwordHasher` or the process-wide default hasher, with its cached dummy hash. */
  readonly passwordVerifier?: PasswordVerifier | undefined;
  /**
   * A hasher to build the default verifier from; ignored when `passwordVerifier` is given. Its
   * `parameters` (an Argon2 hasher's) are the ones a successful sign-in rehashes a stored hash to
   * when they differ, with a `RehashingCredentialStore` (ASVS 5.0 11.2.2).
   */
  readonly passwordHasher?: PasswordHasher | undefined;
  /**
   * Told when sessions end (sign-out, a reused refresh token, `revokeAllSessions`) so that their
   * access tokens are refused before they expire; the auth module passes `CREDENTIAL_REVOCATION`.
   * Default: nobody is told, and access tokens live out their TTL.
   */
  readonly sessionRevocations?: SessionRevocationListener | undefined;
  /**
   * The second-factor check every session start passes (the auth module's `SECOND_FACTORS` when
   * `secondFactors` is configured): for a subject with a factor, `beginSignIn` and `beginSession`
   * answer a second step and `signIn` and `issueTokens` refuse. Default: no second factors.
   */
  readonly secondFactorGate?: SecondFactorGate | undefined;
  /**
   * Told each sign-in's success or failure, each refresh-token reuse and each session ended; the
   * auth module passes its `SECURITY_EVENTS`. Default: nothing is recorded.
   */
  readonly securityEvents?: SecurityEventSink | undefined;
}

/**
 * The token lifetimes a service runs with: {@link TokenLifetimeOptions} with the defaults
 * applied and validated.
 *
 * @example
 * service.settings.refreshTokenTtl; // 2592000
 */
export interface ResolvedTokenLifetimes {
  readonly accessTokenTtl: number;
  readonly refreshTokenTtl: number;
  readonly sessionMaxAge: number;
  readonly refreshReuseGraceSeconds: number;
}

/**
 * Applies defaults and rejects nonsense durations at construction rather than at the first
 * sign-in: TTLs must be positive finite numbers, the grace window a finite number >= 0.
 *
 * @example
 * resolveTokenLifetimes({ refreshTokenTtl: 3600 }); // { accessTokenTtl: 900, refreshTokenTtl: 3600, sessionMaxAge: 2592000, refreshReuseGraceSeconds: 0 }
 */
export function resolveTokenLifetimes(options: TokenLifetimeOptions): ResolvedTokenLifetimes {
  const accessTokenTtl = options.accessTokenTtl ?? DEFAULT_ACCESS_TOKEN_TTL_SECONDS;
  const refreshTokenTtl = options.refreshTokenTtl ?? DEFAULT_REFRESH_TOKEN_TTL_SECONDS;
  const sessionMaxAge = options.sessionMaxAge ?? DEFAULT_SESSION_MAX_AGE_SECONDS;
  const refreshReuseGraceSeconds = options.refreshReuseGraceSeconds ?? DEFAULT_REFRESH_REUSE_GRACE_SECONDS;
  if (!(Number.isFinite(accessTokenTtl) && accessTokenTtl > 0)) {
    throw new RangeError(`accessTokenTtl must be a positive number of seconds, got ${accessTokenTtl}`);
  }
  if (!(Number.isFinite(refreshTokenTtl) && refreshTokenTtl > 0)) {
    throw new RangeError(`refreshTokenTtl must be a positive number of seconds, got ${refreshTokenTtl}`);
  }
  // No "off": an app that wants long sessions says how long (fail closed).
  if (!(Number.isFinite(sessionMaxAge) && sessionMaxAge > 0)) {
    throw new RangeError(`sessionMaxAge must be a positive number of seconds, got ${sessionMaxAge}`);
  }
  if (!(Number.isFinite(refreshReuseGraceSeconds) && refreshReuseGraceSeconds >= 0)) {
    throw new RangeError(`refreshReuseGraceSeconds must be a number of seconds >= 0, got ${refreshReuseGraceSeconds}`);
  }
  return Object.freeze({ accessTokenTtl, refreshTokenTtl, sessionMaxAge, refreshReuseGraceSeconds });
}
