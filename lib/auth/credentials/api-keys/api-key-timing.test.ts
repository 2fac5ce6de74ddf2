// Timing check of SPEC "API keys" 6 at the level the spec promises: the same code path with a
// dummy digest, so a wrong secret on a known id, an unknown id and a random well-formed key take
// about the same time. Medians over many interleaved runs; the bound is generous (2x) because
// wall-clock measurements on shared CI machines are noisy. The structural test in
// api-key-authenticator.work.test.ts is the real guarantee.
import { describe, expect, it } from 'vitest';
import { ApiKeyAuthenticator } from './api-key-authenticator.js';
import type { ApiKeyRecord } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';
import { claimsSchema, noAddress, validClaims, withWrongSecret } from './api-key.test-helper.js';
import { generateApiKey } from './generate-api-key.js';

const ITERATIONS = 2000;
const WARMUP = 300;

/** A store with no latency of its own, so only the authenticator's work is measured. */
class MapStore implements ApiKeyStore {
  readonly records = new Map<string, ApiKeyRecord>();
  find(id: string): ApiKeyRecord | undefined {
    return this.records.get(id);
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

describe('ApiKeyAuthenticator timing', () => {
  it('wrong secret, unknown id and a random well-formed key have comparable medians', async () => {
    const store = new MapStore();
    const known = generateApiKey();
    store.records.set(known.id, { id: known.id, secretHash: known.secretHash, claims: validClaims, scopes: ['posts:read'] });
    const authenticator = new ApiKeyAuthenticator({ store, claimsSchema });

    const wrongSecret = withWrongSecret(known.key);
    const unknownId = generateApiKey().key;
    const randomKeys = Array.from({ length: ITERATIONS + WARMUP }, () => generateApiKey().key);
    const samples = { wrongSecret: [] as number[], unknownId: [] as number[], randomId: [] as number[] };

    const time = async (key: string): Promise<number> => {
      const start = performance.now();
      const result = await authenticator.authenticate({ key, ...noAddress });
      const elapsed = performance.now() - start;
      expect(result).toEqual({ ok: false, status: 401 });
      return elapsed;
    };

    // Interleaved so that JIT warm-up, GC and CPU frequency changes hit all three alike.
    for (let i = 0; i < ITERATIONS + WARMUP; i++) {
      const a = await time(wrongSecret);
      const b = await time(unknownId);
      const c = await time(randomKeys[i] ?? unknownId);
      if (i < WARMUP) continue;
      samples.wrongSecret.push(a);
      samples.unknownId.push(b);
      samples.randomId.push(c);
    }

    const medians = {
      wrongSecret: median(samples.wrongSecret),
      unknownId: median(samples.unknownId),
      randomId: median(samples.randomId),
    };
    console.log(
      `api key authenticate medians over ${ITERATIONS} runs (µs): ` +
        Object.entries(medians)
          .map(([name, ms]) => `${name}=${(ms * 1000).toFixed(2)}`)
          .join(' '),
    );
    const values = Object.values(medians);
    const slowest = Math.max(...values);
    const fastest = Math.min(...values);
    expect(fastest).toBeGreaterThan(0);
    expect(slowest / fastest).toBeLessThan(2);
  });
});
