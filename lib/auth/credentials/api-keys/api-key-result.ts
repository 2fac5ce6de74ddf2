/**
 * What a request authenticated by a key may learn about that key (`getCurrentApiKey`). The id is
 * not secret; the key, its secret and its hash are never part of it.
 *
 * @example
 * const current: AuthenticatedApiKey = { id: '0123456789abcdef01234567', scopes: ['posts:read'] };
 */
export interface AuthenticatedApiKey {
  readonly id: string;
  readonly scopes: readonly string[];
}

/**
 * A key that passed every check: its claims, parsed by the claims schema, and its id and scopes.
 *
 * @example
 * if (result.ok) ctx.set(CURRENT_USER, result.claims);
 */
export interface ApiKeySuccess<Claims> {
  readonly ok: true;
  readonly claims: Claims;
  readonly apiKey: AuthenticatedApiKey;
  /** When the key expires (epoch ms; Infinity when it does not): a WebSocket opened with it closes then. */
  readonly expiresAtMs: number;
}

/**
 * A refused key. Deliberately carries no reason: 401 is every client-side failure (malformed,
 * unknown id, wrong secret, revoked, expired, outside the allowed networks, claims failing the
 * schema), so nothing downstream can leak which one; 503 means the key's state could not be told
 * (store failure or a malformed stored record). The guard answers 401 with `Invalid API key`.
 *
 * @example
 * if (!result.ok && result.status === 503) return problem(503, 'Service Unavailable');
 */
export interface ApiKeyFailure {
  readonly ok: false;
  readonly status: 401 | 503;
}

/**
 * The outcome of `ApiKeyAuthenticator.authenticate`: a result, never an exception, because a
 * refused key is an expected event and an Error could end up in a log with request data.
 *
 * @example
 * const result: ApiKeyResult<Claims> = await authenticator.authenticate(input);
 */
export type ApiKeyResult<Claims> = ApiKeySuccess<Claims> | ApiKeyFailure;

/**
 * The single 401 result, shared by every client-side failure so they are indistinguishable.
 *
 * @example
 * return API_KEY_UNAUTHORIZED;
 */
export const API_KEY_UNAUTHORIZED: ApiKeyFailure = Object.freeze({ ok: false, status: 401 });

/**
 * The single 503 result: the key's state cannot be told, so the request is not let through.
 *
 * @example
 * return API_KEY_UNAVAILABLE;
 */
export const API_KEY_UNAVAILABLE: ApiKeyFailure = Object.freeze({ ok: false, status: 503 });
