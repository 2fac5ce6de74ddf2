import { defineFactory, type Clock, type ProviderInput, type Token } from '../../index.js';
import { createTokenSigner, type OwnTokenOptions } from '../credentials/jwt/index.js';
import { getDummyPasswordHash } from '../credentials/password/index.js';
import { TokenIssuingService, type ClaimsSchema, type CredentialStore, type RefreshTokenStore, type SignInContext, type TokenPair } from '../sessions/issuing/index.js';
import type { IssuingOptions } from '../sessions/issuing/issuing-options.js';
import type { SignInStep, SecondFactorGate } from '../sessions/issuing/second-factor-gate.js';
import type { SessionInfo } from '../sessions/state/session-info.js';
import type { CredentialRevocation } from '../sessions/state/credential-revocation.js';
import { tracedStore } from '../shared/auth-telemetry.js';
import { withSignInThrottle, type SignInThrottle } from '../throttle/index.js';
import type { SecurityEventSink } from '../events/security-event.js';

/**
 * The programmatic auth operations, resolved through the `AUTH_SERVICE` token.
 *
 * @example
 * const pair = await auth.signIn('alice@acme.test', password, { clientAddress, userAgent });
 * const sessions = await auth.listSessions(pair.subject);
 */
export interface AuthService {
  /** `context` feeds sign-in throttling (per client address) and the session list. */
  signIn(identifier: string, password: string, context?: SignInContext): Promise<TokenPair>;
  /** Sign-in in two steps when the account has a second factor: the session, or the step it waits for. */
  beginSignIn(identifier: string, password: string, context?: SignInContext): Promise<SignInStep>;
  /** A session for a subject authenticated by other means (an outside provider), through the same second-factor gate. */
  beginSession(subject: string, context?: SignInContext): Promise<SignInStep>;
  refresh(refreshToken: string): Promise<TokenPair>;
  signOut(refreshToken: string): Promise<void>;
  issueTokens(subject: string, context?: SignInContext): Promise<TokenPair>;
  revokeAllSessions(subject: string): Promise<void>;
  /** Ends every session of every account on every instance: an administrator's operation (ASVS 7.4.5). */
  revokeEverySession(): Promise<void>;
  /** Ends the session of a refresh token known by its SHA-256, as sign-out does (a browser sign-in replacing the session it held). */
  revokeSessionOfToken(tokenHash: string): Promise<void>;
  /** The subject's live sessions (one per sign-in), oldest first. */
  listSessions(subject: string): Promise<readonly SessionInfo[]>;
  /** Ends one of the subject's sessions (sockets close 1008); false for an unknown or another subject's id, alike. */
  revokeSession(subject: string, sessionId: string): Promise<boolean>;
  /** Ends every session of the subject but `keepSessionId` (e.g. after a password change). */
  revokeOtherSessions(subject: string, keepSessionId: string): Promise<void>;
  /** @deprecated Renamed `revokeSession` (one word for ending a session: revoke); removed in 0.3. */
  endSession(subject: string, sessionId: string): Promise<boolean>;
  /** @deprecated Renamed `revokeOtherSessions`; removed in 0.3. */
  endOtherSessions(subject: string, keepSessionId: string): Promise<void>;
}

/**
 * The auth module's tokens the issuing service is built from.
 *
 * @example
 * const tokens: AuthServiceTokens<Claims> = { authService: AUTH_SERVICE, credentialStore: CREDENTIAL_STORE, ... };
 */
export interface AuthServiceTokens<Claims> {
  readonly authService: Token<AuthService>;
  readonly credentialStore: Token<CredentialStore<Claims>>;
  readonly refreshTokenStore: Token<RefreshTokenStore>;
  readonly credentialRevocation: Token<CredentialRevocation>;
  readonly signInThrottle: Token<SignInThrottle | null>;
  readonly secondFactorGate: Token<SecondFactorGate | null>;
  readonly securityEvents: Token<SecurityEventSink>;
}

/**
 * An access token's TTL (whole seconds, at least 1): `accessTokenTtl`, cut so the token ends with
 * its session (`notAfter`, the absolute lifetime) rather than after it.
 */
function accessTokenTtlWithin(accessTokenTtl: number, notAfter: Date | undefined, nowMs: number): number {
  if (notAfter === undefined) return accessTokenTtl;
  const left = Math.floor((notAfter.getTime() - nowMs) / 1000);
  return Math.max(1, Math.min(accessTokenTtl, left));
}

/**
 * The provider of `AUTH_SERVICE` with `issuing`: the token-issuing service over the module's
 * stores, revocation, second-factor gate and security events, signing access tokens with the
 * app's own secret, behind the sign-in throttle (every sign-in through `AUTH_SERVICE`, JSON and
 * browser alike, passes it). The signer is made now, so a bad algorithm fails `forRoot`.
 *
 * @example
 * providers.push(authServiceProvider(issuing, { secret, algorithm, issuer, audience }, clock, claimsSchema, tokens));
 */
export function authServiceProvider<Claims>(issuing: IssuingOptions<Claims>, ownTokens: OwnTokenOptions, clock: Clock, claimsSchema: ClaimsSchema<Claims>, tokens: AuthServiceTokens<Claims>): ProviderInput {
  const signer = createTokenSigner({ ...ownTokens, clock });
  const accessTokenTtl = issuing.accessTokenTtl ?? 900;
  const { credentialStore, refreshTokenStore, credentialRevocation, signInThrottle, secondFactorGate, securityEvents } = tokens;
  return defineFactory(tokens.authService, [credentialStore, refreshTokenStore, credentialRevocation, signInThrottle, secondFactorGate, securityEvents], async (credentials, refreshTokens, revocation, throttle, gate, events) => {
    // Compute the dummy hash at boot: computed lazily, the first sign-in for an unknown
    // account would take a hash longer than the others and tell that it is unknown.
    await getDummyPasswordHash(issuing.passwordHasher);
    const service = new TokenIssuingService<Claims>({
      claimsSchema,
      credentialStore: tracedStore(credentials, 'CredentialStore'),
      refreshTokenStore: tracedStore(refreshTokens, 'RefreshTokenStore'),
      accessTokens: {
        sign: async (claims, subject, sessionId, notAfter) =>
          signer.sign({ ...claims, sub: subject, sid: sessionId }, { ttlSeconds: accessTokenTtlWithin(accessTokenTtl, notAfter, clock.now()), type: 'access' }),
      },
      accessTokenTtl,
      refreshTokenTtl: issuing.refreshTokenTtl,
      sessionMaxAge: issuing.sessionMaxAge,
      refreshReuseGraceSeconds: issuing.refreshReuseGraceSeconds,
      clock,
      passwordHasher: issuing.passwordHasher,
      sessionRevocations: revocation,
      secondFactorGate: gate ?? undefined,
      securityEvents: events,
    });
    return withSignInThrottle(service, throttle);
  });
}
