import { DEFINITION } from '../common/definition-carrier.js';
import { integerAtLeast } from '../common/integer-at-least.js';
import { TesseraError } from '../common/tessera-error.js';
import type { InjectionToken } from '../di/token.js';
import type { Interceptor, InterceptorToken } from '../context/interceptor.js';
import type { RequestContext } from '../context/request-context.js';
import type { Answer } from '../http/answer.js';
import type { ProviderDefinition } from '../di/provider.js';
import { HttpException } from '../http/http-exception.js';
import { answerStepOf, MadeAnswer, type AnswerStep } from '../app/answer-step.js';
import { parseIdempotencyKey } from './idempotency-key.js';
import { IDEMPOTENCY_STORE, type IdempotencyStore } from './idempotency-store.js';
import { KEPT_HEADERS, recordException, recordPlainAnswer, recordResponse, replay, type RecordedAnswer } from './recorded-answer.js';
import { idempotencyId, idempotencyMaterial, requestFingerprint } from './request-fingerprint.js';
import { openAnswer, sealAnswer } from './sealed-answer.js';

/**
 * Options of {@link idempotent}.
 *
 * @example
 * const options: IdempotencyOptions = { identify: (ctx) => auth.getCurrentUser(ctx)?.sub, ttlSeconds: 86_400, required: true };
 */
export interface IdempotencyOptions {
  /**
   * Who is calling, as the guards established it (a user's subject, an API key's id): keys are
   * scoped to it, so one caller's key never replays another's answer. `undefined` fails the
   * request (500): an unidentified caller would share keys with every other. On a public route,
   * return a constant knowingly.
   */
  readonly identify: (ctx: RequestContext) => string | undefined;
  /** The store, or the DI token of one; default {@link IDEMPOTENCY_STORE}. */
  readonly store?: IdempotencyStore | InjectionToken<IdempotencyStore> | undefined;
  /** How long an answer is replayed, in seconds; default 86,400 (24 h, as Stripe keeps keys). */
  readonly ttlSeconds?: number | undefined;
  /**
   * How long a claim holds the key while the handler runs, in seconds; default 60. A request
   * whose instance died leaves its claim behind: the key is free again after this, not after the
   * TTL. Make it longer than the route's slowest handler, or a retry may run beside it.
   */
  readonly lockSeconds?: number | undefined;
  /** Refuse a request without the header (400); default false: it runs as if not idempotent. */
  readonly required?: boolean | undefined;
  /** The largest answer body stored, in bytes; default 1 MiB. A larger answer is sent and not stored. */
  readonly maxAnswerBytes?: number | undefined;
  /** Answer headers to store beside the defaults (docs/production.md lists them). */
  readonly keepHeaders?: readonly string[] | undefined;
}

const HEADER = 'idempotency-key';

function keyMissing(): HttpException {
  return new HttpException(400, 'This operation needs an Idempotency-Key header (a unique key per operation, e.g. a UUID).', undefined, undefined, { code: 'IDEMPOTENCY_KEY_MISSING' });
}

function keyInUse(): HttpException {
  // One second: most first runs have answered by then; the client's retry then gets the replay.
  return new HttpException(409, 'A request with this Idempotency-Key is still being processed; retry later.', undefined, { 'retry-after': '1' }, { code: 'IDEMPOTENCY_KEY_IN_USE' });
}

function keyReused(): HttpException {
  return new HttpException(422, 'This Idempotency-Key was used with another request (path, query or body); send a new key for a new request.', undefined, undefined, {
    code: 'IDEMPOTENCY_KEY_REUSED',
  });
}

/** The claim a request holds while its handler runs. */
interface Claimed {
  readonly id: string;
  /** What the id hashes: the answer is sealed under keys derived from it (answer-keys.ts). */
  readonly material: string;
  readonly token: string;
}

/** Runs an idempotent route: claims the key, replays, or runs the handler and stores its answer. */
class IdempotencyInterceptor implements Interceptor {
  readonly #store: IdempotencyStore;
  readonly #identify: (ctx: RequestContext) => string | undefined;
  readonly #ttlMs: number;
  readonly #lockMs: number;
  readonly #required: boolean;
  readonly #maxAnswerBytes: number;
  readonly #kept: readonly string[];

  constructor(store: IdempotencyStore, settings: Settings) {
    this.#store = store;
    this.#identify = settings.identify;
    this.#ttlMs = settings.ttlMs;
    this.#lockMs = settings.lockMs;
    this.#required = settings.required;
    this.#maxAnswerBytes = settings.maxAnswerBytes;
    this.#kept = settings.kept;
  }

  async intercept(ctx: RequestContext, next: () => Promise<unknown>): Promise<unknown> {
    const route = ctx.route;
    const header = ctx.header(HEADER);
    if (header === null) {
      if (this.#required) throw keyMissing();
      return next();
    }
    const key = parseIdempotencyKey(header);
    // Interceptors run on routes only; a raw route has none.
    if (route === undefined) throw new TesseraError('IDEMPOTENCY_NO_ROUTE', 'idempotent() ran outside a route.');
    const identity = this.#identify(ctx);
    if (typeof identity !== 'string') {
      throw new TesseraError('IDEMPOTENCY_NO_IDENTITY', `idempotent(): identify() gave no caller on ${route.method} ${route.path}; keys must be scoped to a caller.`);
    }
    const toAnswer = answerStepOf(route);
    if (toAnswer === undefined) throw new TesseraError('IDEMPOTENCY_NO_ROUTE', `idempotent() ran on ${route.method} ${route.path}, a route createApp did not compile.`);
    const material = idempotencyMaterial(route.method, route.path, identity, key);
    // The id and the fingerprint are hashed synchronously (sha256-digest.ts: small inputs), and a
    // small answer is sealed and opened synchronously (sealed-answer.ts): a create or a replay of
    // one makes no Web Crypto call. The sealing key is derived when it is used, not for a 409 or 422.
    const [id, fingerprint] = await Promise.all([idempotencyId(material), requestFingerprint(ctx)]);
    const claim = await this.#store.claim(id, fingerprint, this.#lockMs);
    if (claim.state !== 'claimed') {
      if (claim.fingerprint !== fingerprint) throw keyReused();
      if (claim.state === 'running') throw keyInUse();
      return new MadeAnswer(replay(await openAnswer(claim.answer, material)));
    }
    return this.#run(ctx, toAnswer, next, { id, material, token: claim.token });
  }

  /**
   * Runs the handler and makes its answer with the route's own answer step (the function its
   * pipeline answers with when the route is not idempotent), stores that answer and hands it
   * back made, so the step does not run again: the first answer, the stored one and the route's
   * answer without idempotent() are one. A plain answer stays plain (Node writes it directly).
   */
  async #run(ctx: RequestContext, toAnswer: AnswerStep, next: () => Promise<unknown>, claim: Claimed): Promise<MadeAnswer> {
    let answer: Answer;
    let recorded: RecordedAnswer | undefined;
    try {
      answer = await toAnswer(await next());
      recorded = answer instanceof Response ? await recordResponse(answer, this.#maxAnswerBytes, this.#kept) : recordPlainAnswer(answer, this.#maxAnswerBytes, this.#kept);
    } catch (error) {
      await this.#settle(ctx, claim, recordException(error));
      throw error;
    }
    await this.#settle(ctx, claim, recorded);
    return new MadeAnswer(answer);
  }

  /** Stores the answer (sealed), or releases the claim when there is none to store. Never throws: the answer goes out either way. */
  async #settle(ctx: RequestContext, claim: Claimed, recorded: RecordedAnswer | undefined): Promise<void> {
    let text: string | undefined;
    try {
      text = recorded === undefined ? undefined : JSON.stringify(recorded);
    } catch {
      text = undefined; // details JSON cannot write (a bigint): not stored
    }
    try {
      if (text === undefined) await this.#store.release(claim.id, claim.token);
      else await this.#store.complete(claim.id, claim.token, await sealAnswer(text, claim.material), this.#ttlMs);
    } catch (error) {
      // The claim stays until the lock expires: a retry meanwhile gets 409, after it runs again.
      ctx.log.warn({ err: error }, text === undefined ? 'Idempotency store: releasing a claim failed' : 'Idempotency store: storing an answer failed');
    }
  }

}

interface Settings {
  readonly identify: (ctx: RequestContext) => string | undefined;
  readonly ttlMs: number;
  readonly lockMs: number;
  readonly required: boolean;
  readonly maxAnswerBytes: number;
  readonly kept: readonly string[];
}

function settingsOf(options: IdempotencyOptions): Settings {
  if (typeof options.identify !== 'function') throw new TypeError('idempotent(): identify must be a function of the request context');
  const extra = (options.keepHeaders ?? []).map((name) => name.toLowerCase());
  if (extra.includes('set-cookie')) throw new RangeError('idempotent(): set-cookie cannot be kept (a credential, stored in plain)');
  return {
    identify: options.identify,
    ttlMs: integerAtLeast(options.ttlSeconds ?? 86_400, 1, 'ttlSeconds') * 1000,
    lockMs: integerAtLeast(options.lockSeconds ?? 60, 1, 'lockSeconds') * 1000,
    required: options.required === true,
    maxAnswerBytes: integerAtLeast(options.maxAnswerBytes ?? 1_048_576, 0, 'maxAnswerBytes'),
    kept: Object.freeze([...new Set([...KEPT_HEADERS, ...extra])]),
  };
}

function isStore(value: IdempotencyStore | InjectionToken<IdempotencyStore>): value is IdempotencyStore {
  return typeof (value as Partial<IdempotencyStore>).claim === 'function';
}

/**
 * Makes a route (or every route of a controller) idempotent under the `Idempotency-Key` request
 * header (draft-ietf-httpapi-idempotency-key-header): an interceptor to list in `interceptors`.
 * The first request with a key runs; its answer (status, the headers that describe it, body) is
 * stored for `ttlSeconds` under the key, the caller (`identify`) and the route (method and path
 * template); a retry with the same key, on any instance sharing the store, gets that answer again,
 * marked `Idempotent-Replayed: true`. The same key while the first still runs: 409 with
 * `Retry-After`. The same key with another request (path parameters, query or body differ): 422.
 * No key: the request runs as usual, or 400 when `required`. A malformed key: 400.
 *
 * Stored: answers below 500 other than 408, 425 and 429, and HttpExceptions with such statuses (thrown
 * again on a replay, so `onError` shapes both alike). Not stored (the claim is released and a
 * retry runs again): 5xx, errors that are not HttpExceptions, event streams, bodies over
 * `maxAnswerBytes`. Answers are stored sealed (XChaCha20-Poly1305, or AES-256-GCM above 4 KiB,
 * under keys derived from the route, the caller and the key, none of which the store keeps), so a
 * new API key's secret in an answer is no use to whoever reads the store. The interceptor makes the answer with the route's own answer
 * step (its status, response schema and `serializeResponse`), so the route answers the same bytes
 * and headers with or without it, plus `Idempotent-Replayed` on a replay; put it outermost among
 * the route's interceptors: those outside it get the made answer, not the handler's value.
 *
 * @example
 * post('/posts', { body: CreatePost, response: Post, status: 201, interceptors: [idempotent({ identify: (ctx) => auth.getCurrentUser(ctx)?.sub })] }, (ctx) => posts.create(ctx.body));
 */
export function idempotent(options: IdempotencyOptions): InterceptorToken {
  const settings = settingsOf(options);
  const store = options.store ?? IDEMPOTENCY_STORE;
  // A class per call: the token the route table resolves, carrying how to build it (from the store's token, or around the store given).
  class Idempotent extends IdempotencyInterceptor {}
  const definition: ProviderDefinition = isStore(store)
    ? { kind: 'value', provide: Idempotent, useValue: new IdempotencyInterceptor(store, settings) }
    : { kind: 'factory', provide: Idempotent, useFactory: ((resolved: IdempotencyStore) => new IdempotencyInterceptor(resolved, settings)) as (...deps: never[]) => unknown, inject: [store] };
  Object.defineProperty(Idempotent, DEFINITION, { value: () => definition });
  return Idempotent;
}
