import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeBase64, encodeBase64 } from '../common/base64.js';
import { idempotencyMaterial } from './request-fingerprint.js';
import { openAnswer, sealAnswer, SYNC_SEAL_MAX_BYTES } from './sealed-answer.js';

afterEach(() => vi.restoreAllMocks());

const material = idempotencyMaterial('POST', '/orders', 'user:alice', '8e03978e-40d5-43e8-bc93-6894a57f9324');
const otherMaterial = idempotencyMaterial('POST', '/orders', 'user:bob', '8e03978e-40d5-43e8-bc93-6894a57f9324');
const small = JSON.stringify({ v: 1, kind: 'answer', status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"1","secret":"tk_live_s3cr3t"}' });
const large = JSON.stringify({ v: 1, kind: 'answer', status: 200, headers: {}, body: 'x'.repeat(SYNC_SEAL_MAX_BYTES) });

/** The base64url parts of a record: version, nonce (or IV), ciphertext with its tag. */
function partsOf(sealed: string): [string, string, string] {
  const [version = '', nonce = '', data = ''] = sealed.split('.');
  return [version, nonce, data];
}

/** `text` with one bit of the byte at `index` (negative: from the end) flipped. */
function flipped(text: string, index: number): string {
  const bytes = decodeBase64(text);
  if (bytes === undefined) throw new Error(`not base64url: ${text}`);
  const at = index < 0 ? bytes.length + index : index;
  bytes[at] = (bytes[at] ?? 0) ^ 1;
  return encodeBase64(bytes);
}

/** Opens `sealed`, resolving to the text or to the error thrown (synchronously or not). */
async function opened(sealed: string, under: string): Promise<string | Error> {
  try {
    return await openAnswer(sealed, under);
  } catch (error) {
    return error as Error;
  }
}

describe('sealAnswer: a small answer (v2, XChaCha20-Poly1305 on the calling thread)', () => {
  it('seals it as v2.<24-byte nonce>.<ciphertext and tag>, the body not in plain', () => {
    const sealed = sealAnswer(small, material);
    expect(typeof sealed, 'made synchronously, no promise').toBe('string');
    const [version, nonce, data] = partsOf(sealed as string);
    expect([version, decodeBase64(nonce)?.length, decodeBase64(data)?.length], 'version, nonce bytes, ciphertext + tag bytes').toEqual(['v2', 24, new TextEncoder().encode(small).length + 16]);
    expect(sealed, 'sealed, not plain').not.toContain('s3cr3t');
  });

  it('opens it again synchronously, under the same material', () => {
    const text = openAnswer(sealAnswer(small, material) as string, material);
    expect(text, 'the text, not a promise').toBe(small);
  });

  it('seals an answer of exactly the bound as v2', () => {
    const atBound = 'y'.repeat(SYNC_SEAL_MAX_BYTES);
    const sealed = sealAnswer(atBound, material);
    expect(typeof sealed === 'string' && sealed.startsWith('v2.'), 'an answer at the bound is sealed on the thread').toBe(true);
  });
});

describe('sealAnswer: a large answer (v1, AES-256-GCM by Web Crypto, off the event loop)', () => {
  it('seals an answer over the bound as v1.<12-byte IV>.<ciphertext and tag>', async () => {
    const sealed = sealAnswer(large, material);
    expect(sealed, 'a promise: Web Crypto seals it').toBeInstanceOf(Promise);
    const [version, iv, data] = partsOf(await sealed);
    expect([version, decodeBase64(iv)?.length, decodeBase64(data)?.length], 'version, IV bytes, ciphertext + tag bytes').toEqual(['v1', 12, new TextEncoder().encode(large).length + 16]);
  });

  it('opens it again under the same material', async () => {
    expect(await openAnswer(await sealAnswer(large, material), material), 'the large answer back').toBe(large);
  });
});

describe('openAnswer refuses what it did not seal, with one error', () => {
  const cases: [string, (sealed: string) => string][] = [
    ['a ciphertext byte flipped', (sealed) => partsOf(sealed).slice(0, 2).join('.') + '.' + flipped(partsOf(sealed)[2], 0)],
    ['a nonce byte flipped', (sealed) => `${partsOf(sealed)[0]}.${flipped(partsOf(sealed)[1], 5)}.${partsOf(sealed)[2]}`],
    ['a tag byte flipped', (sealed) => partsOf(sealed).slice(0, 2).join('.') + '.' + flipped(partsOf(sealed)[2], -1)],
    ['the tag cut off', (sealed) => partsOf(sealed).slice(0, 2).join('.') + '.' + encodeBase64((decodeBase64(partsOf(sealed)[2]) ?? new Uint8Array()).slice(0, -16))],
    ['the version renamed v1', (sealed) => sealed.replace(/^v2\./, 'v1.')],
    ['an unknown version', (sealed) => sealed.replace(/^v2\./, 'v3.')],
    ['a fourth part', (sealed) => `${sealed}.AAAA`],
    ['a part that is not base64url', (sealed) => `${sealed}=`],
  ];

  it.each(cases)('a v2 record with %s does not open', async (_name, alter) => {
    const result = await opened(alter(sealAnswer(small, material) as string), material);
    expect(result, 'refused').toBeInstanceOf(Error);
    expect((result as Error).message, 'the one error of a record that does not open').toBe('idempotency store: a stored answer that does not open (an unknown format, or altered)');
  });

  it('a v2 record does not open under another material (another caller, route or key)', async () => {
    const result = await opened(sealAnswer(small, material) as string, otherMaterial);
    expect(result, 'refused').toBeInstanceOf(Error);
  });

  it('a v1 record with a ciphertext byte flipped does not open', async () => {
    const [version, iv, data] = partsOf(await sealAnswer(large, material));
    const result = await opened(`${version}.${iv}.${flipped(data, 0)}`, material);
    expect(result, 'refused').toBeInstanceOf(Error);
  });

  it('a v1 record does not open under another material', async () => {
    const result = await opened(await sealAnswer(large, material), otherMaterial);
    expect(result, 'refused').toBeInstanceOf(Error);
  });
});

describe('sealAnswer nonces and IVs', () => {
  it('gives every seal its own nonce or IV, across several draws of random bytes', async () => {
    const sealed = await Promise.all(Array.from({ length: 300 }, (_, i) => sealAnswer(i % 3 === 0 ? `${large}${i}` : `answer ${i}`, material)));
    const nonces = sealed.map((record) => partsOf(record)[1]);
    expect(new Set(nonces).size, 'no nonce or IV handed out twice').toBe(300);
    const opened = await Promise.all(sealed.map((record) => openAnswer(record, material)));
    expect(opened[299], 'each opens with its own nonce').toBe('answer 299');
  });

  it('draws random bytes once per 64 small seals, not once per seal (a CSPRNG call costs µs on Node)', () => {
    const draws = vi.spyOn(crypto, 'getRandomValues');
    for (let i = 0; i < 128; i++) sealAnswer('answer', material);
    expect(draws.mock.calls.length, 'getRandomValues calls for 128 seals').toBeLessThanOrEqual(3);
  });
});
