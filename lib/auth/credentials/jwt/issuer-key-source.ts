import { createLocalJWKSet, createRemoteJWKSet, customFetch, errors, exportJWK, importSPKI } from 'jose';
import { inAuthSpan } from '../../shared/auth-telemetry.js';
import type { CompactVerifyGetKey, JWK, RemoteJWKSetOptions } from 'jose';
import type { Clock } from '../../../index.js';
import { AuthConfigError } from '../../shared/auth-config-error.js';
import type { TrustedIssuer } from './trusted-issuer-options.js';

/**
 * Where an outside issuer's public keys come from: a key function for jose's `compactVerify`, and
 * `prepare`, run at boot, which imports PEM keys (a key that cannot be imported fails the boot).
 *
 * @example
 * const source = createIssuerKeySource(issuer, clock);
 * await source.prepare();
 * await compactVerify(token, source.resolve, { algorithms: [...issuer.algorithms] });
 */
export interface IssuerKeySource {
  readonly resolve: CompactVerifyGetKey;
  prepare(): Promise<void>;
  /**
   * Whether the source has keys to verify with: always for static keys, once prepared for PEM
   * keys; for a JWKS URL, once any fetch succeeded (a key set that later goes stale keeps
   * verifying, so it still counts), else after one fetch now, the cooldown permitting.
   */
  available(): Promise<boolean>;
}

/**
 * Thrown by a remote key source that has no keys to offer: the JWKS endpoint never answered, and
 * the cooldown forbids asking again yet. The verifier reports it as `key_unavailable`.
 *
 * @example
 * if (error instanceof KeysUnavailableError) return FAILURES.key_unavailable;
 */
export class KeysUnavailableError extends Error {
  override readonly name = 'KeysUnavailableError';
}

/**
 * Creates the key source of one trusted issuer.
 *
 * A remote source uses jose's `createRemoteJWKSet` for fetching (with the timeout), parsing, key
 * import and `kid` matching, and adds the policy jose does not have, driven by the injected clock:
 *
 * - one request at a time, and after any request (answered or failed) none for `cooldownMs`:
 *   forged `kid`s cannot cause a refetch storm, not even while the endpoint is down (jose alone
 *   retries on every unknown `kid` once its cooldown since the last *success* has passed);
 * - a key set older than `maxAgeMs` is refreshed in the background, and kept when that fails, so
 *   known keys keep verifying through an outage (jose alone would fail every token once its cache
 *   age passed and the endpoint was down); a successful refresh drops keys the provider removed.
 *
 * @example
 * const source = createIssuerKeySource(readTrustedIssuer({ issuer, audience, jwksUrl }), systemClock);
 */
export function createIssuerKeySource(issuer: TrustedIssuer, clock: Clock): IssuerKeySource {
  const source = issuer.keySource;
  if (source.kind === 'remote') return createRemoteKeySource(source, clock);
  if (source.kind === 'static') {
    const local = createLocalKeySet(source.jwks.keys, issuer.issuer);
    return { resolve: local, prepare: async () => {}, available: async () => true };
  }
  let local: CompactVerifyGetKey | undefined;
  return {
    async prepare() {
      local ??= createLocalKeySet(await importPemKeys(source.pems, issuer), issuer.issuer);
    },
    available: async () => local !== undefined,
    async resolve(header, token) {
      if (local === undefined) throw new KeysUnavailableError('PEM keys were not prepared');
      // A PEM key has no `kid`, and jose never matches a token's `kid` against a key without one,
      // so PEM keys are picked by algorithm only (several keys: each is tried).
      return local({ alg: header.alg }, token);
    },
  };
}

function createLocalKeySet(keys: readonly JWK[], issuer: string): CompactVerifyGetKey {
  try {
    return createLocalJWKSet({ keys: [...keys] });
  } catch {
    throw new AuthConfigError(`Trusted issuer ${JSON.stringify(issuer)}: jwks is not a valid JSON Web Key Set`);
  }
}

async function importPemKeys(pems: readonly string[], issuer: TrustedIssuer): Promise<JWK[]> {
  const keys: JWK[] = [];
  for (const [index, pem] of pems.entries()) {
    let jwk: JWK | undefined;
    // A PEM does not say which algorithm it is for; the first of the issuer's algorithms it
    // imports under tells its key type, and the JWK (without `alg`) then serves all of them.
    for (const algorithm of issuer.algorithms) {
      try {
        jwk = await exportJWK(await importSPKI(pem, algorithm, { extractable: true }));
        break;
      } catch {
        // Not a key for this algorithm; try the next one.
      }
    }
    if (jwk === undefined) {
      throw new AuthConfigError(`Trusted issuer ${JSON.stringify(issuer.issuer)}: publicKeys[${index}] is not a public key for ${issuer.algorithms.join(', ')}`);
    }
    keys.push(jwk);
  }
  return keys;
}

type RemoteSource = Extract<TrustedIssuer['keySource'], { kind: 'remote' }>;

function createRemoteKeySource(source: RemoteSource, clock: Clock): IssuerKeySource {
  const options: RemoteJWKSetOptions = {
    timeoutDuration: source.timeoutMs,
    // Infinity switches off jose's own time-based reloads; the policy below decides when to fetch.
    cooldownDuration: Infinity,
    cacheMaxAge: Infinity,
  };
  if (source.fetch !== undefined) options[customFetch] = source.fetch;
  const remote = createRemoteJWKSet(source.url, options);
  let loaded = false;
  let lastAttemptMs = -Infinity;
  let loadedAtMs = -Infinity;
  let pending: Promise<boolean> | undefined;

  /** Fetches the key set unless a fetch is under way (then shares it) or the cooldown forbids it. */
  function refetch(nowMs: number): Promise<boolean> {
    if (pending !== undefined) return pending;
    if (nowMs - lastAttemptMs < source.cooldownMs) return Promise.resolve(false);
    lastAttemptMs = nowMs;
    const attempt = inAuthSpan('jwks.fetch', () => remote.reload(), { 'url.full': String(source.url) }).then(
      () => {
        loaded = true;
        loadedAtMs = nowMs;
        return true;
      },
      // Down, slow, non-200 or not a key set: keep what we have. The failure itself is not logged
      // here (the verifier has no logger); the refused tokens show it as key_unavailable.
      () => false,
    );
    pending = attempt.finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    prepare: async () => {},
    available: async () => loaded || refetch(clock.now()),
    async resolve(header, token) {
      const nowMs = clock.now();
      if (!loaded) {
        if (!(await refetch(nowMs))) throw new KeysUnavailableError('The JWKS endpoint has not answered');
      } else if (nowMs - loadedAtMs >= source.maxAgeMs) {
        void refetch(nowMs);
      }
      try {
        return await remote(header, token);
      } catch (error) {
        // An unknown kid may be a key the provider just rotated in: one refetch, cooldown permitting.
        if (error instanceof errors.JWKSNoMatchingKey && (await refetch(nowMs))) return remote(header, token);
        throw error;
      }
    },
  };
}
