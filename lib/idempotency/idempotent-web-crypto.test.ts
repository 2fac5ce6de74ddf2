import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, silentLogger } from '../index.js';
import { answerKey, openAnswer, sealAnswer } from './sealed-answer.js';
import { idempotencyId, idempotencyMaterial } from './request-fingerprint.js';
import { SYNC_SHA256_MAX_BYTES } from './sha256-digest.js';

const Create = z.object({ title: z.string() });
const Post = z.object({ id: z.string(), title: z.string() });

async function postsApp() {
  const store = new InMemoryIdempotencyStore();
  let runs = 0;
  const controller = defineController({
    name: 'Posts',
    routes: () => ({
      create: post('/posts', { body: Create, response: Post, status: 201, interceptors: [idempotent({ store, identify: () => 'alice' })] }, (ctx) => ({ id: String(++runs), title: ctx.body.title })),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), { logger: silentLogger });
}

function create(key: string, title: string): Request {
  return new Request('http://localhost/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ title }) });
}

/** Counts the Web Crypto calls made while `run` runs, by method. */
async function webCryptoCalls(run: () => Promise<unknown>): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const name of ['digest', 'importKey', 'encrypt', 'decrypt'] as const) {
    const original = crypto.subtle[name].bind(crypto.subtle) as (...args: unknown[]) => unknown;
    vi.spyOn(crypto.subtle, name).mockImplementation(((...args: unknown[]) => {
      counts[name] = (counts[name] ?? 0) + 1;
      return original(...args);
    }) as never);
  }
  await run();
  vi.restoreAllMocks();
  return counts;
}

afterEach(() => vi.restoreAllMocks());

describe('idempotent() and Web Crypto (each call a round trip through the runtime\u2019s crypto thread)', () => {
  it('a first create with a small body imports its answer key and seals, and hashes nothing through Web Crypto', async () => {
    const app = await postsApp();
    const calls = await webCryptoCalls(async () => expect((await app.fetch(create('k-1', 'hello'))).status, 'created').toBe(201));
    expect(calls, 'the id, the fingerprint and the key bytes are hashed synchronously').toEqual({ importKey: 1, encrypt: 1 });
  });

  it('a replay imports the key and opens the answer, nothing more', async () => {
    const app = await postsApp();
    await app.fetch(create('k-1', 'hello'));
    const calls = await webCryptoCalls(async () => expect((await app.fetch(create('k-1', 'hello'))).headers.get('idempotent-replayed'), 'replayed').toBe('true'));
    expect(calls, 'Web Crypto calls of a replay').toEqual({ importKey: 1, decrypt: 1 });
  });

  it('a body over the synchronous hash\u2019s bound is fingerprinted by Web Crypto: the same body replays, another is refused', async () => {
    const app = await postsApp();
    const large = 'x'.repeat(SYNC_SHA256_MAX_BYTES + 100);
    const first = await app.fetch(create('k-large', large));
    const retry = await app.fetch(create('k-large', large));
    const other = await app.fetch(create('k-large', `${large}y`));
    expect([first.status, retry.status, retry.headers.get('idempotent-replayed'), other.status], 'created, replayed, key reused').toEqual([201, 201, 'true', 422]);
  });
});

describe('what the store keeps is unchanged by the synchronous hash', () => {
  it('the id is the Web Crypto SHA-256 of the material, as stores filled before hold it', async () => {
    const material = idempotencyMaterial('POST', '/posts', 'alice', 'k-1');
    const webCrypto = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(material))).toString('hex');
    expect(await idempotencyId(material), 'id').toBe(webCrypto);
  });

  it('an answer sealed under the Web Crypto derivation of the answer key opens, and the reverse', async () => {
    const material = idempotencyMaterial('POST', '/posts', 'alice', 'k-1');
    const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`tessera idempotency answer key\n${material}`));
    const webCryptoKey = await crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
    const derived = await answerKey(material);
    expect(await openAnswer(await sealAnswer('stored before', webCryptoKey), derived), 'an answer stored before opens').toBe('stored before');
    expect(await openAnswer(await sealAnswer('stored now', derived), webCryptoKey), 'the key is the same key').toBe('stored now');
  });
});
