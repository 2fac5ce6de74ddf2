// Shared fixtures for the API key tests: a claims schema, a store with call counters, and a
// helper that creates a key and stores its record. Test-only; not exported from the index.
import { z } from 'zod';
import type { ApiKeyRecord } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';
import { generateApiKey } from './generate-api-key.js';
import type { GeneratedApiKey } from './generate-api-key.js';
import { InMemoryApiKeyStore } from './in-memory-api-key-store.js';

export const claimsSchema = z.object({ sub: z.string(), roles: z.array(z.string()), tenantId: z.string().optional() });
export type TestClaims = z.infer<typeof claimsSchema>;

export const validClaims: TestClaims = { sub: 'svc-billing', roles: ['reader'], tenantId: 'acme' };

/** An InMemoryApiKeyStore that counts `find` and `touch` calls and can be told to fail. */
export class CountingStore implements ApiKeyStore {
  readonly inner = new InMemoryApiKeyStore();
  findCalls: string[] = [];
  touchCalls: Array<{ id: string; at: Date }> = [];
  findFailure: 'none' | 'throw' | 'reject' = 'none';

  find(id: string): Promise<ApiKeyRecord | undefined> {
    this.findCalls.push(id);
    if (this.findFailure === 'throw') throw new Error(`database down while reading ${id}`);
    if (this.findFailure === 'reject') return Promise.reject(new Error(`database down while reading ${id}`));
    return Promise.resolve(this.inner.find(id));
  }

  touch(id: string, at: Date): void {
    this.touchCalls.push({ id, at });
    this.inner.touch(id, at);
  }
}

/** Generates a key and stores a record for it, with `overrides` applied to the record. */
export function addKey(store: { inner: InMemoryApiKeyStore } | InMemoryApiKeyStore, overrides: Partial<ApiKeyRecord> = {}): GeneratedApiKey {
  const generated = generateApiKey();
  const target = store instanceof InMemoryApiKeyStore ? store : store.inner;
  target.add({ id: generated.id, secretHash: generated.secretHash, claims: validClaims, scopes: ['posts:read'], ...overrides });
  return generated;
}

/** The same key with a different, well-formed secret. */
export function withWrongSecret(key: string): string {
  // Flip the first secret character between two valid ones; the final character stays canonical.
  const at = key.length - 43;
  const replacement = key[at] === 'A' ? 'B' : 'A';
  return key.slice(0, at) + replacement + key.slice(at + 1);
}

/** A well-formed key whose id is (almost surely) not in any store. */
export function randomUnknownKey(): string {
  return generateApiKey().key;
}

export const noAddress = { socketAddress: undefined, forwardedFor: null } as const;
