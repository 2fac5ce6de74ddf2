import { describe, expect, it } from 'vitest';
import { generateApiKey } from './generate-api-key.js';
import { InMemoryApiKeyStore } from './in-memory-api-key-store.js';

function record(overrides = {}) {
  const generated = generateApiKey();
  return { id: generated.id, secretHash: generated.secretHash, claims: { sub: 'svc' }, scopes: ['a'], ...overrides };
}

describe('InMemoryApiKeyStore', () => {
  it('can be built by the DI container as a bare class (no required constructor parameters)', () => {
    expect(InMemoryApiKeyStore.length).toBe(0);
    expect(new InMemoryApiKeyStore().list()).toEqual([]);
  });

  it('finds what was added, and undefined for unknown ids', () => {
    const r = record();
    const store = new InMemoryApiKeyStore([r]);
    expect(store.find(r.id)).toEqual(r);
    expect(store.find('0'.repeat(24))).toBeUndefined();
  });

  it('copies records in and out', () => {
    const r = record();
    const store = new InMemoryApiKeyStore();
    store.add(r);
    r.scopes.push('mutated-after-add');
    const found = store.find(r.id);
    (found?.scopes as string[] | undefined)?.push('mutated-after-find');
    expect(store.find(r.id)?.scopes).toEqual(['a']);
  });

  it('refuses a duplicate id', () => {
    const r = record();
    const store = new InMemoryApiKeyStore([r]);
    expect(() => store.add(r)).toThrow(/already exists/);
  });

  it('revoke sets revokedAt, keeps the record and the earliest moment', () => {
    const r = record();
    const store = new InMemoryApiKeyStore([r]);
    expect(store.revoke(r.id, new Date(2000))).toBe(true);
    expect(store.revoke(r.id, new Date(3000))).toBe(true);
    expect(store.find(r.id)?.revokedAt).toEqual(new Date(2000));
    expect(store.revoke(r.id, new Date(1000))).toBe(true);
    expect(store.find(r.id)?.revokedAt).toEqual(new Date(1000));
    expect(store.list()).toHaveLength(1);
    expect(store.revoke('f'.repeat(24), new Date())).toBe(false);
  });

  it('touch records the last use of known keys only', () => {
    const r = record();
    const store = new InMemoryApiKeyStore([r]);
    store.touch(r.id, new Date(5));
    store.touch('f'.repeat(24), new Date(5));
    expect(store.lastUsedAt(r.id)).toEqual(new Date(5));
    expect(store.lastUsedAt('f'.repeat(24))).toBeUndefined();
  });
});
