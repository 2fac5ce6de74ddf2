import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, silentLogger } from '../index.js';
import { encodeBase64 } from '../common/base64.js';
import { idempotencyId, idempotencyMaterial, requestFingerprint } from './request-fingerprint.js';
import type { RequestContext } from '../context/request-context.js';

// What idempotent() does with each record format a store may hold for a key: v1 (every answer
// stored before v2, and large answers since), and a format this version does not know (what a v2
// record is to an instance of an earlier build during a rolling upgrade).

const Create = z.object({ title: z.string() });

async function postsApp(store: InMemoryIdempotencyStore) {
  const runs = { count: 0 };
  const controller = defineController({
    name: 'Posts',
    routes: () => ({
      create: post('/posts', { body: Create, status: 201, interceptors: [idempotent({ store, identify: () => 'alice' })] }, (ctx) => ({ id: String(++runs.count), title: ctx.body.title })),
    }),
  });
  const app = await createApp(defineModule({ name: 'M', controllers: [controller] }), { logger: silentLogger });
  const send = () => app.fetch(new Request('http://localhost/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': 'k-1' }, body: JSON.stringify({ title: 'hello' }) }));
  return { send, runs };
}

/** Stores `sealed` as the completed answer of the request `postsApp` sends, as another instance would have. */
async function storedBefore(store: InMemoryIdempotencyStore, seal: (material: string) => Promise<string>): Promise<void> {
  const material = idempotencyMaterial('POST', '/posts', 'alice', 'k-1');
  const fingerprint = await requestFingerprint({ params: {}, query: {}, route: { body: Create }, body: { title: 'hello' } } as unknown as RequestContext);
  const id = await idempotencyId(material);
  const claim = await store.claim(id, fingerprint, 60_000);
  if (claim.state !== 'claimed') throw new Error('the key was not new');
  await store.complete(id, claim.token, await seal(material), 86_400_000);
}

/** A v1 record as every build before v2 sealed it: AES-256-GCM by Web Crypto under SHA-256("tessera idempotency answer key\n" + material). */
async function v1Record(text: string, material: string): Promise<string> {
  const keyBytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`tessera idempotency answer key\n${material}`));
  const key = await crypto.subtle.importKey('raw', keyBytes, 'AES-GCM', false, ['encrypt']);
  const iv = crypto.getRandomValues(new Uint8Array(12));
  return `v1.${encodeBase64(iv)}.${encodeBase64(new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, key, new TextEncoder().encode(text))))}`;
}

describe('idempotent() and the record formats in its store', () => {
  it('replays an answer stored as a v1 record by an earlier build, without running the handler', async () => {
    const store = new InMemoryIdempotencyStore();
    const recorded = JSON.stringify({ v: 1, kind: 'answer', status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"41","title":"hello"}' });
    await storedBefore(store, (material) => v1Record(recorded, material));
    const { send, runs } = await postsApp(store);
    const res = await send();
    expect([res.status, res.headers.get('idempotent-replayed'), await res.text(), runs.count], 'the stored answer, replayed; no run').toEqual([201, 'true', '{"id":"41","title":"hello"}', 0]);
  });

  it('answers 500 for a record of a format it does not know, and does not run the handler', async () => {
    const store = new InMemoryIdempotencyStore();
    await storedBefore(store, async () => `v3.${encodeBase64(new Uint8Array(24))}.${encodeBase64(new Uint8Array(40))}`);
    const { send, runs } = await postsApp(store);
    const res = await send();
    expect([res.status, runs.count], 'a 500, never a guess and never a second run').toEqual([500, 0]);
  });
});
