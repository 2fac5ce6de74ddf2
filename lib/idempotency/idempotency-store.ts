import { createToken, type Token } from '../di/token.js';

/**
 * What a store answers to a claim: the key is now the caller's to run (`claimed`, with the token
 * that completes or releases it), another request holds it and has not answered yet (`running`),
 * or its answer is stored (`completed`). The last two carry the fingerprint of the request that
 * claimed the key, so the caller can tell a retry from a reuse of the key with another request.
 *
 * @example
 * const claim: IdempotencyClaim = { state: 'completed', fingerprint: 'c0ffee…', answer: '{"v":1,…}' };
 */
export type IdempotencyClaim =
  | { readonly state: 'claimed'; readonly token: string }
  | { readonly state: 'running'; readonly fingerprint: string }
  | { readonly state: 'completed'; readonly fingerprint: string; readonly answer: string };

/**
 * Where idempotent routes keep their claims and answers (see `idempotent`), shared by every
 * instance that must recognise each other's retries. Implementations: `InMemoryIdempotencyStore`
 * (one process), `PostgresIdempotencyStore` (`tessera-http/postgres`) and `RedisIdempotencyStore`
 * (`tessera-http/redis`). `id` is opaque to the store (the route, the caller and the key, hashed);
 * `answer` is opaque text. Every method is atomic across instances:
 *
 * - `claim` makes the id the caller's when nothing live holds it (never held, released, or
 *   expired: a claim expires `lockMs` after it was made, a completed answer `ttlMs` after it was
 *   stored), else reports what holds it. Of concurrent claims of one id, exactly one is `claimed`.
 * - `complete` stores the answer for `ttlMs` and `release` drops the claim, each only while the
 *   claim with `token` is still the one held (not yet completed, not replaced by a later claim
 *   after it expired); both answer whether it was.
 *
 * A store that cannot answer throws (a 503 `HttpException` is best): the request then fails
 * closed, before its handler runs.
 *
 * @example
 * const claim = await store.claim(id, fingerprint, 60_000);
 * if (claim.state === 'claimed') await store.complete(id, claim.token, answer, 86_400_000);
 */
export interface IdempotencyStore {
  claim(id: string, fingerprint: string, lockMs: number): Promise<IdempotencyClaim>;
  complete(id: string, token: string, answer: string, ttlMs: number): Promise<boolean>;
  release(id: string, token: string): Promise<boolean>;
}

/**
 * The DI token `idempotent()` takes its store from unless given one: provide it once (in memory,
 * PostgreSQL or Redis) and every idempotent route of the modules that see it shares that store.
 *
 * @example
 * defineModule({ name: 'Stores', providers: [{ provide: IDEMPOTENCY_STORE, useValue: new InMemoryIdempotencyStore() }], exports: [IDEMPOTENCY_STORE] });
 */
export const IDEMPOTENCY_STORE: Token<IdempotencyStore> = createToken<IdempotencyStore>('IdempotencyStore');
