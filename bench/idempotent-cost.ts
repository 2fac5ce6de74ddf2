// What idempotent() adds to a create (issue 46), in process: N `app.handle` calls of a plain
// create route against the same route with idempotent() on the in-memory store (a fresh key per
// request, so each claims, runs and stores). Two ways to split what it adds:
// - alone: the store's claim + complete of answers like the real ones (fresh strings of the real
//   sizes, into one store that grows as the app's does), and the hashing and sealing (the id, the
//   request fingerprint, the seal with its key) made by idempotent()'s own functions in its own
//   order;
// - in place: the same idempotent() on a store that keeps nothing (it claims every key and
//   completes without keeping): idempotent minus that is the store's work as the app sees it (its
//   garbage collection included: what the store keeps is copied out of the young generation),
//   that minus plain is idempotent()'s own.
// Rounds alternate the variants; medians in µs per request, of wall time and of CPU time (the
// process's, its crypto threads included: steadier on a shared machine). Then one more idempotent
// create and its replay with Web Crypto counted: each call is a trip through the runtime's crypto
// layer (on Node WebIDL checks and, for digest and encrypt, a libuv thread-pool job), whose cost
// in a sequential run is more than its CPU. A/B: run the same file in a worktree of the other
// commit (before the v2 seal, 19178c4 and earlier, the crypto functions took a CryptoKey: that
// tree's own copy of this file calls them so).
//   node --import ./scripts/register-swc.mjs bench/idempotent-cost.ts
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, silentLogger, type App, type IdempotencyClaim, type IdempotencyStore } from '../lib/index.js';
import { incomingFromRequest } from '../lib/internal/request-path.js';
import type { RequestContext } from '../lib/context/request-context.js';
import { idempotencyId, idempotencyMaterial, requestFingerprint } from '../lib/idempotency/request-fingerprint.js';
import { sealAnswer } from '../lib/idempotency/sealed-answer.js';

const N = Number(process.env.BENCH_N ?? 4000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9);
const Create = z.object({ title: z.string() });
const Post = z.object({ id: z.string(), title: z.string() });
const body = JSON.stringify({ title: 'hello' });

async function appWith(store: IdempotencyStore | undefined): Promise<App> {
  const controller = defineController({
    name: 'Posts',
    routes: () => ({
      create: post('/posts', { body: Create, response: Post, status: 201, interceptors: store === undefined ? [] : [idempotent({ store, identify: () => 'alice' })] }, (ctx) => ({ id: '1', title: ctx.body.title })),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), { logger: silentLogger });
}

/** Claims every key and keeps nothing: idempotent() on it does all its own work and none of a store's. */
class KeepsNothingStore implements IdempotencyStore {
  async claim(): Promise<IdempotencyClaim> {
    return { state: 'claimed', token: 'token' };
  }
  async complete(): Promise<boolean> {
    return true;
  }
  async release(): Promise<boolean> {
    return true;
  }
}

// Large enough that no entry is evicted during the run.
const capacity = N * (ROUNDS + 2) * 2;

let keys = 0;
async function round(app: App): Promise<void> {
  for (let i = 0; i < N; i++) {
    const request = new Request('http://localhost/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': `k-${keys++}` }, body });
    const status = await new Promise<number>((resolve) => app.handle(incomingFromRequest(request), (answer) => resolve(answer.status)));
    if (status !== 201) throw new Error(`answered ${status}`);
  }
}

/** One store for every store round, growing as the app's does. */
const aloneStore = new InMemoryIdempotencyStore({ maxEntries: capacity });
let stored = 0;
/** A sealed answer's length for this route's answer (`v2.<nonce>.<ciphertext>`), measured below. */
let sealedLength = 0;

/**
 * The store's own work for one request: a claim and the completion with a sealed answer, each of
 * its strings (id, fingerprint, answer) made fresh at the real sizes, as a request makes them.
 */
async function storeRound(): Promise<void> {
  for (let i = 0; i < N; i++) {
    const n = stored++;
    const id = n.toString(16).padStart(64, '0');
    const claim = await aloneStore.claim(id, n.toString(16).padStart(64, 'f'), 60_000);
    if (claim.state !== 'claimed') throw new Error('not claimed');
    await aloneStore.complete(id, claim.token, n.toString(36).padStart(sealedLength, 'B'), 86_400_000);
  }
}

/** What the request fingerprint reads of the context on this route: no params or query, the validated body. */
const fingerprinted = { params: {}, query: {}, route: { body: Create }, body: { title: 'hello' } } as unknown as RequestContext;
/** The record idempotent() seals for this route's answer. */
const recorded = JSON.stringify({ v: 1, kind: 'answer', status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: '1', title: 'hello' }) });

/**
 * The hashing and sealing idempotent() does per request, by its own functions and in its order
 * (the id and the fingerprint awaited together, then the seal, which derives its key), so this
 * measures exactly the crypto it must do, whichever way those functions compute it.
 */
async function cryptoRound(): Promise<void> {
  for (let i = 0; i < N; i++) {
    const material = idempotencyMaterial('POST', '/posts', 'alice', `c-${i}`);
    await Promise.all([idempotencyId(material), requestFingerprint(fingerprinted)]);
    await sealAnswer(recorded, material);
  }
}

/** The Web Crypto calls of one request with `key` (by method): counted after the timed rounds. */
async function webCryptoCalls(app: App, key: string): Promise<Record<string, number>> {
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
    const request = new Request('http://localhost/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body });
    await new Promise<number>((resolve) => app.handle(incomingFromRequest(request), (answer) => resolve(answer.status)));
  } finally {
    for (const [name, original] of originals) subtle[name] = original;
  }
  return counts;
}

/** Wall time and CPU time (this process, its crypto threads included) per request of one round, in µs. */
async function timed(run: () => Promise<void>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await run();
  const wall = ((performance.now() - started) * 1000) / N;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / N };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
sealedLength = (await sealAnswer(recorded, idempotencyMaterial('POST', '/posts', 'alice', 'length'))).length;
const plainApp = await appWith(undefined);
const idempotentApp = await appWith(new InMemoryIdempotencyStore({ maxEntries: capacity }));
const keepsNothingApp = await appWith(new KeepsNothingStore());
type Variant = 'plain' | 'idempotent' | 'keepsNothing' | 'store' | 'crypto';
const variants: Record<Variant, () => Promise<void>> = { plain: () => round(plainApp), idempotent: () => round(idempotentApp), keepsNothing: () => round(keepsNothingApp), store: storeRound, crypto: cryptoRound };
const samples = { wall: {} as Record<Variant, number[]>, cpu: {} as Record<Variant, number[]> };
for (const run of Object.values(variants)) await run();
for (let r = 0; r < ROUNDS; r++) {
  for (const [name, run] of Object.entries(variants) as [Variant, () => Promise<void>][]) {
    const { wall, cpu } = await timed(run);
    (samples.wall[name] ??= []).push(wall);
    (samples.cpu[name] ??= []).push(cpu);
  }
}
const medians = (of: Record<Variant, number[]>) => Object.fromEntries(Object.entries(of).map(([name, values]) => [name, median(values)])) as Record<Variant, number>;
const fixed = (n: number) => Number(n.toFixed(2));
/** One clock's figures: the variants, what idempotent() adds, and its two splits. */
function figures(m: Record<Variant, number>) {
  return {
    plainUs: fixed(m.plain),
    idempotentUs: fixed(m.idempotent),
    addedUs: fixed(m.idempotent - m.plain),
    storeUs: fixed(m.store),
    cryptoUs: fixed(m.crypto),
    addedOverStoreAndCryptoUs: fixed(m.idempotent - m.plain - m.store - m.crypto),
    keepsNothingUs: fixed(m.keepsNothing),
    storeInPlaceUs: fixed(m.idempotent - m.keepsNothing),
    ownUs: fixed(m.keepsNothing - m.plain),
    ownOverCryptoUs: fixed(m.keepsNothing - m.plain - m.crypto),
  };
}
const counted = `k-${keys++}`;
const calls = await webCryptoCalls(idempotentApp, counted);
const replayCalls = await webCryptoCalls(idempotentApp, counted);
console.log(JSON.stringify({ n: N, rounds: ROUNDS, ...figures(medians(samples.wall)), cpu: figures(medians(samples.cpu)), webCryptoCallsPerCreate: calls, webCryptoCallsPerReplay: replayCalls }));
