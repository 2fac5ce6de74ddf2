import { afterEach, describe, expect, it, vi } from 'vitest';
import { answerKey, openAnswer, sealAnswer } from './sealed-answer.js';

afterEach(() => vi.restoreAllMocks());

/** The IV of a sealed answer (`v1.<iv>.<ciphertext>`). */
const ivOf = (sealed: string) => sealed.split('.')[1];

describe('sealAnswer IVs', () => {
  it('gives every seal its own 96-bit IV, across several draws of random bytes', async () => {
    const key = await answerKey('["POST","/orders","alice","k"]');
    const sealed = await Promise.all(Array.from({ length: 200 }, (_, i) => sealAnswer(`answer ${i}`, key)));
    const ivs = sealed.map(ivOf);
    expect(new Set(ivs).size, 'no IV handed out twice').toBe(200);
    expect(ivs.every((iv) => iv?.length === 16), 'each IV is 12 bytes (16 base64url characters)').toBe(true);
    const opened = await Promise.all(sealed.map((text) => openAnswer(text, key)));
    expect(opened[199], 'each opens with its own IV').toBe('answer 199');
  });

  it('draws random bytes once per 64 seals, not once per seal (a CSPRNG call costs µs on Node)', async () => {
    const key = await answerKey('["POST","/orders","alice","k"]');
    const draws = vi.spyOn(crypto, 'getRandomValues');
    for (let i = 0; i < 128; i++) await sealAnswer('answer', key);
    expect(draws.mock.calls.length, 'getRandomValues calls for 128 seals').toBeLessThanOrEqual(3);
  });
});
