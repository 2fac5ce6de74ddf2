// What idempotent() adds to a create (issue 46), in process: N `app.handle` calls of a plain
// create route against the same route with idempotent() on the in-memory store (a fresh key per
// request, so each claims, runs and stores), beside the work idempotent() cannot avoid measured
// alone: the store's claim + complete of the same sealed answer, and the hashing and sealing
// (the id, the request fingerprint, the AES-GCM seal). Rounds alternate the variants; medians in
// µs per request. A/B: run the same file in a worktree of the other commit.
//   node --import ./scripts/register-swc.mjs bench/idempotent-cost.ts
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, silentLogger, type App } from '../lib/index.js';
import { incomingFromRequest } from '../lib/internal/request-path.js';

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

/** The hashing and sealing idempotent() does per request: two SHA-256 (id, fingerprint), a key derivation and an AES-GCM seal. */
async function cryptoRound(): Promise<number> {
  const encoder = new TextEncoder();
  const started = performance.now();
  for (let i = 0; i < N; i++) {
    await Promise.all([crypto.subtle.digest('SHA-256', encoder.encode(`material-${i}`)), crypto.subtle.digest('SHA-256', encoder.encode(`POST /posts ${body}`))]);
    const digest = await crypto.subtle.digest('SHA-256', encoder.encode(`key-${i}`));
    const key = await crypto.subtle.importKey('raw', digest, 'AES-GCM', false, ['encrypt']);
    await crypto.subtle.encrypt({ name: 'AES-GCM', iv: crypto.getRandomValues(new Uint8Array(12)) }, key, encoder.encode('{"v":1,"kind":"answer","status":201,"headers":{"content-type":"application/json"},"body":"{\\"id\\":\\"1\\",\\"title\\":\\"hello\\"}"}'));
  }
  return ((performance.now() - started) * 1000) / N;
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
console.log(JSON.stringify({ n: N, rounds: ROUNDS, plainUs: fixed(m.plain), idempotentUs: fixed(m.idempotent), addedUs: fixed(m.idempotent - m.plain), storeUs: fixed(m.store), cryptoUs: fixed(m.crypto), addedOverStoreAndCryptoUs: fixed(m.idempotent - m.plain - m.store - m.crypto) }));
