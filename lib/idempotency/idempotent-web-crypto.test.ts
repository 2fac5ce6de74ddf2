import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeBase64, encodeBase64 } from '../common/base64.js';
import { z } from 'zod';
import { createApp, defineController, defineModule, idempotent, InMemoryIdempotencyStore, post, silentLogger } from '../index.js';
import { openAnswer, sealAnswer, SYNC_SEAL_MAX_BYTES } from './sealed-answer.js';
import { idempotencyId, idempotencyMaterial } from './request-fingerprint.js';
import { SYNC_SHA256_MAX_BYTES } from './sha256-digest.js';

const Create = z.object({ title: z.string() });
const Post = z.object({ id: z.string(), title: z.string() });

/** A create route; `padding` characters are added to every answer's title (a large answer with a small body). */
async function postsApp(padding = 0) {
  const store = new InMemoryIdempotencyStore();
  let runs = 0;
  const controller = defineController({
    name: 'Posts',
    routes: () => ({
      create: post('/posts', { body: Create, response: Post, status: 201, interceptors: [idempotent({ store, identify: () => 'alice' })] }, (ctx) => ({
        id: String(++runs),
        title: ctx.body.title + 'p'.repeat(padding),
      })),
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

/** A record main (19178c4) stored: its sealAnswer under its answerKey, run once and kept here as it printed it. */
const MAIN_V1_RECORD = {
  material: '["POST","/posts","alice","golden-k"]',
  text: '{"v":1,"kind":"answer","status":201,"headers":{"content-type":"application/json"},"body":"{\\"id\\":\\"7\\",\\"title\\":\\"stored by main\\"}"}',
  sealed:
    'v1.bZNg-0X5lX1IE4sp.N5aw7ZhcoBgE4HI4t5tD66C0xWZxOSvwSF4Syt1MP5xaTyodGpyab5ESMuKJLiX8rYRYOxdV1zc4m4a0iXuAIdCAgEJivXyj0qDr4267HbLx51Pktwy8kcQ6iZwdmCrWSASGcXFIQezS0bcwV_geAL_NIxvfw93XqMKcjmGOlOHF956B1wcOvU6I9lTyLnZBUCX8W8GYAg',
};

describe('idempotent() and Web Crypto (each call a round trip through the runtime\u2019s crypto thread)', () => {
  it('a first create with a small body and a small answer makes no Web Crypto call', async () => {
    const app = await postsApp();
    const calls = await webCryptoCalls(async () => expect((await app.fetch(create('k-1', 'hello'))).status, 'created').toBe(201));
    expect(calls, 'the id, the fingerprint and the key hashed, the answer sealed, all on the calling thread').toEqual({});
  });

  it('a replay of a small answer makes no Web Crypto call', async () => {
    const app = await postsApp();
    await app.fetch(create('k-1', 'hello'));
    const calls = await webCryptoCalls(async () => expect((await app.fetch(create('k-1', 'hello'))).headers.get('idempotent-replayed'), 'replayed').toBe('true'));
    expect(calls, 'Web Crypto calls of a replay').toEqual({});
  });

  it('an answer over the synchronous seal\u2019s bound is sealed by Web Crypto (the key imported, then encrypted), off the event loop', async () => {
    const app = await postsApp(SYNC_SEAL_MAX_BYTES);
    const calls = await webCryptoCalls(async () => expect((await app.fetch(create('k-1', 'hello'))).status, 'created').toBe(201));
    expect(calls, 'Web Crypto calls of a create with a large answer').toEqual({ importKey: 1, encrypt: 1 });
  });

  it('an answer over the bound replays, opened by Web Crypto', async () => {
    const app = await postsApp(SYNC_SEAL_MAX_BYTES);
    const first = await (await app.fetch(create('k-1', 'hello'))).text();
    let replay: Response | undefined;
    const calls = await webCryptoCalls(async () => (replay = await app.fetch(create('k-1', 'hello'))));
    expect([replay?.headers.get('idempotent-replayed'), await replay?.text()], 'the same large answer, replayed').toEqual(['true', first]);
    expect(calls, 'Web Crypto calls of its replay').toEqual({ importKey: 1, decrypt: 1 });
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

  /** The AES-256-GCM key every v1 record was sealed under: Web Crypto's SHA-256 of the label and the material, imported. */
  async function webCryptoV1Key(material: string): Promise<CryptoKey> {
    const bytes = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`tessera idempotency answer key\n${material}`));
    return crypto.subtle.importKey('raw', bytes, 'AES-GCM', false, ['encrypt', 'decrypt']);
  }

  it('a v1 record sealed as before v2 (Web Crypto AES-256-GCM, a 96-bit IV, under the Web Crypto derivation) opens', async () => {
    const material = idempotencyMaterial('POST', '/posts', 'alice', 'k-1');
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const sealed = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await webCryptoV1Key(material), new TextEncoder().encode('stored before')));
    expect(await openAnswer(`v1.${encodeBase64(iv)}.${encodeBase64(sealed)}`, material), 'an answer stored before opens').toBe('stored before');
  });

  it('a v1 record written by main at 19178c4 (sealAnswer under answerKey) opens', async () => {
    expect(await openAnswer(MAIN_V1_RECORD.sealed, MAIN_V1_RECORD.material), 'the answer main stored').toBe(MAIN_V1_RECORD.text);
  });

  it('a large answer sealed now is v1 under the same key: Web Crypto\u2019s derivation opens it', async () => {
    const material = idempotencyMaterial('POST', '/posts', 'alice', 'k-1');
    const text = 'z'.repeat(SYNC_SEAL_MAX_BYTES + 1);
    const [version, iv = '', data = ''] = (await sealAnswer(text, material)).split('.');
    const plain = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: decodeBase64(iv) as Uint8Array<ArrayBuffer> }, await webCryptoV1Key(material), decodeBase64(data) as Uint8Array<ArrayBuffer>);
    expect([version, new TextDecoder().decode(plain)], 'a v1 record, opened by Web Crypto alone').toEqual(['v1', text]);
  });
});
