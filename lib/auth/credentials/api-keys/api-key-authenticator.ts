import type { z } from 'zod';
import { recordApiKeyRefusal, recordAuthenticated } from '../../shared/auth-telemetry.js';
import { systemClock } from '../../../index.js';
import { checkedClock } from '../../../internal/primitives.js';
import type { Clock } from '../../../index.js';
import { constantTimeEqual } from '../../shared/constant-time-equal.js';
import { createClientAddressReader } from '../../../index.js';
import type { ClientAddressInput, ClientAddressOptions, ClientAddressReader } from '../../../index.js';
import { ApiKeyRecordCache } from './api-key-record-cache.js';
import { API_KEY_UNAUTHORIZED, API_KEY_UNAVAILABLE } from './api-key-result.js';
import type { ApiKeyResult } from './api-key-result.js';
import type { ApiKeyStore } from './api-key-store.js';
import { completeApiKeyStore, type CompleteApiKeyStore } from './complete-api-key-store.js';
import { UNREADABLE_RECORD, compileApiKeyRecord } from './compiled-api-key.js';
import type { CompiledApiKey } from './compiled-api-key.js';
import { DUMMY_SECRET_DIGEST } from './dummy-secret-digest.js';
import { digestApiKeySecret } from './hash-api-key-secret.js';
import { LastUsedTracker } from './last-used-tracker.js';
import { parseApiKey } from './parse-api-key.js';

/**
 * Default bound on cached records. Each entry is a few hundred bytes plus its claims.
 *
 * @example
 * new ApiKeyAuthenticator({ store, claimsSchema, maxCacheEntries: DEFAULT_API_KEY_CACHE_ENTRIES });
 */
export const DEFAULT_API_KEY_CACHE_ENTRIES = 10_000;

/**
 * Options of {@link ApiKeyAuthenticator}; the `ApiKeyOptions` of SPEC, resolved by the guard.
 *
 * @example
 * const options: ApiKeyAuthenticatorOptions<Claims> = {
 *   store, claimsSchema, clock: systemClock, cacheSeconds: 60,
 * };
 */
export interface ApiKeyAuthenticatorOptions<Claims> {
  readonly store: ApiKeyStore;
  /** The same claims schema tokens are validated with (SPEC "API keys" 7). */
  readonly claimsSchema: z.ZodType<Claims>;
  /** Default {@link systemClock}. Drives expiry, revocation, the cache and last-used tracking. */
  readonly clock?: Clock;
  /** How long a found record is kept in process; 0 (default) turns the cache off. */
  readonly cacheSeconds?: number;
  /** Minimum time between two `touch` calls for one key; default 300. 0 touches on every success. */
  readonly lastUsedIntervalSeconds?: number;
  /**
   * The deprecated `apiKeys.clientIp` rule, read over the address given (`ctx.clientAddress`,
   * the socket peer while the app has no `clientAddress` rule of its own); without it the address
   * given is the client's. See `createClientAddressReader`.
   */
  readonly clientIp?: ClientAddressOptions;
  /** Bound on cached records; default {@link DEFAULT_API_KEY_CACHE_ENTRIES}. */
  readonly maxCacheEntries?: number;
}

/**
 * What the guard passes for one request: the raw `x-api-key` header value and the client's
 * address as the app decided it (`ctx.clientAddress`), with `X-Forwarded-For` for the deprecated
 * `clientIp` rule.
 *
 * @example
 * const input: ApiKeyAuthenticationInput = {
 *   key: ctx.header('x-api-key') ?? '',
 *   socketAddress: ctx.clientAddress,
 *   forwardedFor: ctx.header('x-forwarded-for'),
 * };
 */
export interface ApiKeyAuthenticationInput extends ClientAddressInput {
  readonly key: string;
}

/**
 * Verifies machine API keys (SPEC "Authentication / API keys"). One instance per process (the
 * guard holds it): the cache and the last-used tracker are per instance.
 *
 * Every decision, in order:
 *  1. Format (`parseApiKey`). Malformed: 401, and the store is not queried.
 *  2. Hash the presented secret (SHA-256). Always, for every well-formed key.
 *  3. Look the id up: the cache (when `cacheSeconds` > 0), else `store.find(id)`. A throw or
 *     rejection, or a record that cannot be read safely (wrong id, bad `secretHash`, an invalid
 *     Date, non-string scopes, a malformed stored network), makes the state unknown.
 *  4. Compare, in constant time, the presented digest with the record's digest, or with a fixed
 *     dummy digest when there is no readable record. Always, cached record or not.
 *  5. State unknown (step 3): 503. Never let through.
 *  6. No record, or the digests differ: 401.
 *  7. Revoked (`revokedAt <= now`): 401.  8. Expired (`expiresAt <= now`): 401.
 *  9. `allowedCidrs` set and the client address (`ctx.clientAddress`, or the deprecated `clientIp` rule's) unknown or outside
 *     every network: 401.
 * 10. Claims fail the claims schema (or it throws): 401.
 * 11. Success: `touch` when due (step "last used" below), and the parsed claims are returned.
 *
 * Timing: every well-formed key does steps 2-4 identically (one hash, one 32-byte comparison),
 * whether its id exists or not; the only difference is the store's own latency for found vs
 * missing ids, which a key id (not secret) may reveal anyway. Steps 7-10 run only after the secret
 * matched, so their timing is visible only to someone already holding the key. Step 1 depends on
 * the format alone, which is public.
 *
 * Caching: a found, readable record is cached for `cacheSeconds` whether or not the presented
 * secret matched (so wrong-secret floods on a real id do not reach the store); records not found
 * or unreadable are never cached. Revocation made in the store may go unseen for up to
 * `cacheSeconds`; `expiresAt` is always checked against the clock.
 *
 * Last used: after a success, `store.touch(id, now)` is called at most once per key per
 * `lastUsedIntervalSeconds` in this instance. It is not awaited (the response does not wait for a
 * best-effort write); a synchronous throw or a rejection is caught and ignored.
 *
 * Nothing here logs or throws with request data: failures are the two frozen results, so no key,
 * secret or hash can end up in a message.
 *
 * @example
 * const authenticator = new ApiKeyAuthenticator({ store, claimsSchema, cacheSeconds: 60 });
 * const result = await authenticator.authenticate({ key, socketAddress, forwardedFor });
 * if (!result.ok) throw result.status === 401 ? new UnauthorizedException('Invalid API key') : unavailable();
 */
export class ApiKeyAuthenticator<Claims> {
  readonly #store: CompleteApiKeyStore;
  readonly #claimsSchema: z.ZodType<Claims>;
  readonly #clock: Clock;
  readonly #cache: ApiKeyRecordCache | undefined;
  readonly #lastUsed: LastUsedTracker;
  readonly #readClientAddress: ClientAddressReader;
  #cacheTrusted = true;

  constructor(options: ApiKeyAuthenticatorOptions<Claims>) {
    const cacheSeconds = options.cacheSeconds ?? 0;
    const lastUsedIntervalSeconds = options.lastUsedIntervalSeconds ?? 300;
    if (!Number.isFinite(cacheSeconds) || cacheSeconds < 0) {
      throw new RangeError('apiKeys.cacheSeconds must be a non-negative number');
    }
    if (!Number.isFinite(lastUsedIntervalSeconds) || lastUsedIntervalSeconds < 0) {
      throw new RangeError('apiKeys.lastUsedIntervalSeconds must be a non-negative number');
    }
    this.#store = completeApiKeyStore(options.store);
    this.#claimsSchema = options.claimsSchema;
    this.#clock = checkedClock(options.clock ?? systemClock);
    this.#cache =
      cacheSeconds > 0
        ? new ApiKeyRecordCache(cacheSeconds * 1000, options.maxCacheEntries ?? DEFAULT_API_KEY_CACHE_ENTRIES)
        : undefined;
    this.#lastUsed = new LastUsedTracker(lastUsedIntervalSeconds * 1000);
    // Throws at construction for bad trustedProxyHops or isTrustedProxy networks: a config error.
    this.#readClientAddress = createClientAddressReader(options.clientIp);
  }

  /** Authenticates one presented key; see the class comment for the exact order. Never rejects. */
  async authenticate(input: ApiKeyAuthenticationInput): Promise<ApiKeyResult<Claims>> {
    // 1. Format, before anything touches the store.
    const parsed = parseApiKey(input.key);
    if (parsed === undefined) return refuse('malformed');

    // 2. Hash the presented secret, for every well-formed key.
    const presentedDigest = digestApiKeySecret(parsed.secret);

    // 3. Look the id up (cache, then store).
    const now = this.#clock.now();
    const found = await this.#lookup(parsed.id, now);

    // 4. One constant-time comparison on every path; the dummy stands in for a missing record.
    const readable = found !== undefined && found !== UNREADABLE_RECORD ? found : undefined;
    const secretMatches = constantTimeEqual(presentedDigest, readable?.secretDigest ?? DUMMY_SECRET_DIGEST);

    // 5-10. Decide. `readable` is undefined for both a missing and an unreadable record.
    // The reasons reach metrics and the request's span only: the caller gets the same 401 for all.
    if (found === UNREADABLE_RECORD) {
      recordApiKeyRefusal('store_unavailable');
      return API_KEY_UNAVAILABLE;
    }
    if (readable === undefined) return refuse('unknown_key');
    if (!secretMatches) return refuse('wrong_secret');
    if (readable.revokedAtMs <= now) return refuse('revoked');
    if (readable.expiresAtMs <= now) return refuse('expired');
    if (readable.allowedCidrs.restricted && !readable.allowedCidrs.allows(this.#readClientAddress(input))) {
      return refuse('network');
    }
    const claims = await this.#parseClaims(readable.claims);
    if (claims === undefined) return refuse('claims');

    // 11. Success.
    recordAuthenticated('api-key');
    this.#touchIfDue(readable.id, now);
    return { ok: true, claims: claims.value, apiKey: { id: readable.id, scopes: readable.scopes }, expiresAtMs: readable.expiresAtMs };
  }

  /**
   * Drops one key's cached record: the next request with it reads the store (a revocation made
   * elsewhere is then seen). `CREDENTIAL_REVOCATION` calls it on every instance.
   *
   * @example
   * authenticator.forget(revokedKeyId);
   */
  forget(id: string): void {
    this.#cache?.delete(id);
  }

  /** Drops every cached record (for tests, or after bulk revocation in a single process). */
  clearCache(): void {
    this.#cache?.clear();
  }

  /**
   * Whether cached records may decide requests: false while this instance cannot hear
   * revocations (its bus is down), so that every key is read from the store, where a revocation
   * made on another instance is already visible. Turning it off drops what is cached.
   *
   * @example
   * authenticator.trustCache(bus.listening());
   */
  trustCache(trusted: boolean): void {
    if (!trusted) this.#cache?.clear();
    this.#cacheTrusted = trusted;
  }

  /**
   * Whether the key `id` can still be used, read from the store (never the cache): false when it
   * is gone, revoked or expired, undefined when the store cannot tell. For what outlives one
   * request, such as a WebSocket opened with the key.
   *
   * @example
   * if ((await authenticator.isUsable(id)) === false) closeSocketsOf(id);
   */
  async isUsable(id: string): Promise<boolean | undefined> {
    let compiled: CompiledApiKey | typeof UNREADABLE_RECORD | undefined;
    try {
      compiled = compileApiKeyRecord(id, await this.#store.find(id));
    } catch {
      return undefined;
    }
    if (compiled === UNREADABLE_RECORD) return undefined;
    const now = this.#clock.now();
    return compiled !== undefined && compiled.revokedAtMs > now && compiled.expiresAtMs > now;
  }

  async #lookup(id: string, now: number): Promise<CompiledApiKey | typeof UNREADABLE_RECORD | undefined> {
    const cache = this.#cacheTrusted ? this.#cache : undefined;
    const cached = cache?.get(id, now);
    if (cached !== undefined) return cached;
    let compiled: CompiledApiKey | typeof UNREADABLE_RECORD | undefined;
    try {
      compiled = compileApiKeyRecord(id, await this.#store.find(id));
    } catch {
      // The store's error is dropped, not logged: its message could echo the id or our query,
      // and the guard's 503 is the signal. Stores should log their own faults.
      return UNREADABLE_RECORD;
    }
    if (compiled !== undefined && compiled !== UNREADABLE_RECORD) cache?.set(compiled, now);
    return compiled;
  }

  async #parseClaims(raw: unknown): Promise<{ readonly value: Claims } | undefined> {
    try {
      // Async parse so that a schema with async refinements works too.
      const result = await this.#claimsSchema.safeParseAsync(raw);
      return result.success ? { value: result.data } : undefined;
    } catch {
      // A refinement that throws is a schema bug; refusing (fail closed) beats a 500 that might
      // carry the claims into an error log.
      return undefined;
    }
  }

  #touchIfDue(id: string, now: number): void {
    if (this.#lastUsed.claim(id, now)) this.#store.touch(id, new Date(now));
  }
}

/** The one 401 for every refused key, after recording why (for operators, never for the caller). */
function refuse(reason: string): typeof API_KEY_UNAUTHORIZED {
  recordApiKeyRefusal(reason);
  return API_KEY_UNAUTHORIZED;
}
