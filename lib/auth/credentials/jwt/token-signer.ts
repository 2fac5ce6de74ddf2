import type { Clock } from '../../../index.js';
import { encodeBase64 } from '../../../internal/primitives.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import { readAudienceOption, readIssuerOption } from './audience-and-issuer-options.js';
import { assertHmacAlgorithm } from './hmac-algorithm.js';
import type { OwnTokenOptions } from './own-token-options.js';
import { createHmacKey } from './hmac-key.js';
import { TOKEN_TYPE_HEADERS } from './token-type.js';
import type { TokenType } from './token-type.js';

/**
 * Options for {@link createTokenSigner}: the app's own tokens (`OwnTokenOptions`, the same the
 * verifier is given) and the clock that stamps `iat` and `exp`.
 *
 * @example
 * const options: TokenSignerOptions = { secret, algorithm: 'HS256', issuer: 'https://id.example', clock: systemClock };
 */
export type TokenSignerOptions = OwnTokenOptions & { readonly clock: Clock };

/**
 * Per-token options: lifetime in whole seconds and what the token is for (sets the `typ` header).
 *
 * @example
 * const options: SignOptions = { ttlSeconds: 900, type: 'access' };
 */
export interface SignOptions {
  readonly ttlSeconds: number;
  readonly type: TokenType;
}

/**
 * A compact JWS and the instant its `exp` claim names.
 *
 * @example
 * const { token, expiresAt } = signer.sign({ sub: 'u1' }, { ttlSeconds: 900, type: 'access' });
 */
export interface SignedToken {
  readonly token: string;
  readonly expiresAt: Date;
}

/**
 * Signs tokens with one secret and algorithm.
 *
 * @example
 * const { token } = signer.sign({ sub: 'u1', roles: ['admin'] }, { ttlSeconds: 900, type: 'access' });
 */
export interface TokenSigner {
  sign(claims: Record<string, unknown>, options: SignOptions): SignedToken;
}

/**
 * Claims the signer owns. A caller's own value for any of these is dropped, so application claims
 * can never extend a token's life (`exp`), backdate or pre-date it (`iat`, `nbf`), or claim another
 * issuer or audience than the configured one.
 */
const SIGNER_OWNED_CLAIMS: ReadonlySet<string> = new Set(['iss', 'aud', 'iat', 'exp', 'nbf', 'jti']);

/**
 * Creates a token signer. Tokens carry the header `{ alg, typ }` and the payload: the caller's
 * claims, then `iss`/`aud` when configured, `iat` and `exp` from the clock (whole seconds), and a
 * random 128-bit `jti`.
 *
 * Why not jose's SignJWT: signing here reuses the exact HMAC and base64url code the verifier runs,
 * so the two cannot drift; it is synchronous (no promise per token); and it writes no header
 * parameter we did not choose. Interoperability is proven by tests in both directions against
 * jose's SignJWT and jwtVerify.
 *
 * @example
 * const signer = createTokenSigner({ secret, algorithm: 'HS256', audience: 'api', clock: systemClock });
 * const { token, expiresAt } = signer.sign({ sub: 'u1' }, { ttlSeconds: 900, type: 'access' });
 */
export function createTokenSigner(options: TokenSignerOptions): TokenSigner {
  const { secret, algorithm, clock } = options;
  assertHmacAlgorithm(algorithm);
  const key = createHmacKey(secret, algorithm);
  const issuer = readIssuerOption(options.issuer);
  const audience = readAudienceOption(options.audience);
  if (typeof clock?.now !== 'function') throw new AuthConfigError('The token signer needs a clock');
  const encoder = new TextEncoder();
  const headers: Readonly<Record<TokenType, string>> = Object.freeze({
    access: encodeJson({ alg: algorithm, typ: TOKEN_TYPE_HEADERS.access }),
    refresh: encodeJson({ alg: algorithm, typ: TOKEN_TYPE_HEADERS.refresh }),
  });

  function encodeJson(value: unknown): string {
    return encodeBase64(encoder.encode(JSON.stringify(value)));
  }

  return Object.freeze({
    sign(claims: Record<string, unknown>, signOptions: SignOptions): SignedToken {
      const { ttlSeconds, type } = signOptions;
      if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds <= 0) {
        throw new RangeError('ttlSeconds must be a positive integer');
      }
      const header = Object.hasOwn(headers, type) ? headers[type] : undefined;
      if (header === undefined) throw new TypeError('type must be "access" or "refresh"');
      if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
        throw new TypeError('claims must be a plain object');
      }

      // A null-prototype object, so a "__proto__" claim could not reach the prototype setter;
      // it is refused anyway because the verifier refuses it.
      const payload: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
      for (const name of Object.keys(claims)) {
        if (name === '__proto__') throw new TypeError('claims must not contain "__proto__"');
        if (!SIGNER_OWNED_CLAIMS.has(name)) payload[name] = claims[name];
      }
      if (issuer !== undefined) payload.iss = issuer;
      if (audience !== undefined) payload.aud = audience;
      const issuedAt = Math.floor(clock.now() / 1000);
      const expiresAt = issuedAt + ttlSeconds;
      payload.iat = issuedAt;
      payload.exp = expiresAt;
      payload.jti = encodeBase64(crypto.getRandomValues(new Uint8Array(16)));

      const signingInput = `${header}.${encodeJson(payload)}`;
      const mac = key.macAscii(signingInput, signingInput.length);
      // Unreachable: both segments are base64url. Checked so a bug cannot yield an unsigned token.
      if (mac === undefined) throw new Error('JWT signing input was not ASCII');
      return { token: `${signingInput}.${encodeBase64(mac)}`, expiresAt: new Date(expiresAt * 1000) };
    },
  });
}
