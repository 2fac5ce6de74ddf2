import { describe, expect, it } from 'vitest';
import { compileAllowedCidrs } from '../../../internal/client-policies.js';
import { ApiKeyRecordCache } from './api-key-record-cache.js';
import type { CompiledApiKey } from './compiled-api-key.js';

function compiled(id: string): CompiledApiKey {
  return {
    id,
    secretDigest: new Uint8Array(32),
    claims: {},
    scopes: [],
    expiresAtMs: Infinity,
    revokedAtMs: Infinity,
    allowedCidrs: compileAllowedCidrs(undefined),
  };
}

describe('ApiKeyRecordCache', () => {
  it('serves an entry until exactly ttl after it was set', () => {
    const cache = new ApiKeyRecordCache(1000, 10);
    const a = compiled('a');
    cache.set(a, 0);
    expect(cache.get('a', 999)).toBe(a);
    expect(cache.get('a', 1000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('evicts the oldest entries beyond maxEntries', () => {
    const cache = new ApiKeyRecordCache(1000, 3);
    for (const id of ['a', 'b', 'c', 'd']) cache.set(compiled(id), 0);
    expect(cache.size).toBe(3);
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('d', 1)?.id).toBe('d');
  });

  it('a refreshed entry moves to the young end', () => {
    const cache = new ApiKeyRecordCache(1000, 2);
    cache.set(compiled('a'), 0);
    cache.set(compiled('b'), 0);
    cache.set(compiled('a'), 10);
    cache.set(compiled('c'), 10);
    expect(cache.get('a', 11)?.id).toBe('a');
    expect(cache.get('b', 11)).toBeUndefined();
  });

  it('drops stale entries at the old end on insert', () => {
    const cache = new ApiKeyRecordCache(1000, 100);
    cache.set(compiled('a'), 0);
    cache.set(compiled('b'), 5000);
    expect(cache.size).toBe(1);
  });

  it('refuses nonsense sizes', () => {
    expect(() => new ApiKeyRecordCache(0, 10)).toThrow(RangeError);
    expect(() => new ApiKeyRecordCache(1000, 0)).toThrow(RangeError);
    expect(() => new ApiKeyRecordCache(1000, 1.5)).toThrow(RangeError);
  });
});
