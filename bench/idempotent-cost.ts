// What idempotent() adds to a create (issue 46), in process: N `app.handle` calls of a plain
// create route against the same route with idempotent() on the in-memory store (a fresh key per
// request, so each claims, runs and stores), beside the work idempotent() cannot avoid measured
// alone: the store's claim + complete of the same sealed answer, and the hashing and sealing
// (the id, the request fingerprint, the answer key, the AES-GCM seal) made by idempotent()'s own
// functions in its own order. Rounds alternate the variants; medians in µs per request. Then one
// more idempotent request with Web Crypto counted: each call is a round trip through the
// runtime's crypto thread (on Node a libuv thread-pool job, or at least a promise and WebIDL
// checks), whose cost in a sequential run is latency more than CPU. A/B: run the same file in a
// worktree of the other commit.
//   node --import ./scripts/register-swc.mjs bench/idempotent-cost.ts
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, silentLogger, type App } from '../lib/index.js';
import { incomingFromRequest } from '../lib/internal/request-path.js';
import type { RequestContext } from '../lib/context/request-context.js';
import { idempotencyId, idempotencyMaterial, requestFingerprint } from '../lib/idempotency/request-fingerprint.js';
import { answerKey, sealAnswer } from '../lib/idempotency/sealed-answer.js';

const N = Number(process.env.BENCH_N ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const Create = z.object({ title: z.string() });
const Post = z.object({ id: z.string(), title: z.string() });
const body = JSON.stringify({ title: 'hello' });

async function appWith(idempotency: boolean): Promise<App> {
  // Large enough that no entry is evicted during a round.
  const store = new InMemoryIdempotencyStore({ maxEntries: N * ROUNDS * 2 });
  const controller = defineController({
    name: 'Posts',
    routes: () => ({
      create: post('/posts', { body: Create, response: Post, status: 201, interceptors: idempotency ? [idempotent({ store, identify: () => 'alice' })] : [] }, (ctx) => ({ id: '1', title: ctx.body.title })),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), { logger: silentLogger });
}

let keys = 0;
async function round(app: App): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const request = new Request('http://localhost/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': `k-${keys++}` }, body });
    const status = await new Promise<number>((resolve) => app.handle(incomingFromRequest(request), (answer) => resolve(answer.status)));
    if (status !== 201) throw new Error(`answered ${status}`);
  }
  return ((performance.now() - started) * 1000) / N;
}

/** The store's own work for one request: a claim and the completion with a sealed answer of the same size. */
async function storeRound(): Promise<number> {
  const store = new InMemoryIdempotencyStore({ maxEntries: N * 2 });
  const sealed = 'v1.' + 'A'.repeat(16) + '.' + 'B'.repeat(120);
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const claim = await store.claim(`id-${i}`, 'fingerprint', 60_000);
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await store.complete(`id-${i}`, claim.token, sealed, 86_400_000);
  }
  return ((performance.now() - started) * 1000) / N;
}

/** What the request fingerprint reads of the context on this route: no params or query, the validated body. */
const fingerprinted = { params: {}, query: {}, route: { body: Create }, body: { title: 'hello' } } as unknown as RequestContext;
/** The record idempotent() seals for this route's answer. */
const recorded = JSON.stringify({ v: 1, kind: 'answer', status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '1', title: 'hello' }) });

/**
 * The hashing and sealing idempotent() does per request, by its own functions and in its order
 * (the answer key started first, the id and the fingerprint awaited together, then the seal), so
 * this measures exactly the crypto it must do, whichever way those functions compute it.
 */
async function cryptoRound(): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    const material = idempotencyMaterial('POST', '/posts', 'alice', `c-${i}`);
    const sealingKey = answerKey(material);
    await Promise.all([idempotencyId(material), requestFingerprint(fingerprinted)]);
    await sealAnswer(recorded, await sealingKey);
  }
  return ((performance.now() - started) * 1000) / N;
}

/** The Web Crypto calls one idempotent create makes (by method): counted on one request after the timed rounds. */
async function webCryptoCalls(app: App): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => unknown>;
  const originals = new Map<string, (...args: unknown[]) => unknown>();
  for (const name of ['digest', 'importKey', 'encrypt', 'decrypt', 'deriveKey', 'deriveBits', 'sign', 'verify']) {
    const original = subtle[name] as (...args: unknown[]) => unknown;
    originals.set(name, original);
    subtle[name] = (...args: unknown[]) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return original.apply(crypto.subtle, args);
    };
  }
  try {
    const request = new Request('http://localhost/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': `k-${keys++}` }, body });
    await new Promise<number>((resolve) => app.handle(incomingFromRequest(request), (answer) => resolve(answer.status)));
  } finally {
    for (const [name, original] of originals) subtle[name] = original;
  }
  return counts;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const plainApp = await appWith(false);
const idempotentApp = await appWith(true);
const samples = { plain: [] as number[], idempotent: [] as number[], store: [] as number[], crypto: [] as number[] };
await round(plainApp);
await round(idempotentApp);
for (let r = 0; r < ROUNDS; r++) {
  samples.plain.push(await round(plainApp));
  samples.idempotent.push(await round(idempotentApp));
  samples.store.push(await storeRound());
  samples.crypto.push(await cryptoRound());
}
const m = { plain: median(samples.plain), idempotent: median(samples.idempotent), store: median(samples.store), crypto: median(samples.crypto) };
const fixed = (n: number) => Number(n.toFixed(2));
const calls = await webCryptoCalls(idempotentApp);
console.log(
  JSON.stringify({
    n: N,
    rounds: ROUNDS,
    plainUs: fixed(m.plain),
    idempotentUs: fixed(m.idempotent),
    addedUs: fixed(m.idempotent - m.plain),
    storeUs: fixed(m.store),
    cryptoUs: fixed(m.crypto),
    addedOverStoreAndCryptoUs: fixed(m.idempotent - m.plain - m.store - m.crypto),
    webCryptoCallsPerCreate: calls,
  }),
);
