import { describe, expect, it } from 'vitest';
import { completeApiKeyStore } from './complete-api-key-store.js';
import type { ApiKeyStore } from './api-key-store.js';

describe('completeApiKeyStore', () => {
  it('gives a store without touch a touch that does nothing and returns nothing', () => {
    const store = completeApiKeyStore({ find: () => undefined });
    expect(store.touch('id', new Date(0))).toBeUndefined();
  });

  it("calls the store's own touch with its this, the id and the time", () => {
    const seen: unknown[] = [];
    const own: ApiKeyStore & { name: string } = {
      name: 'own',
      find: () => undefined,
      touch(id, at) {
        seen.push(this.name, id, at.getTime());
      },
    };
    completeApiKeyStore(own).touch('k1', new Date(5));
    expect(seen).toEqual(['own', 'k1', 5]);
  });

  it('ignores a touch that throws or rejects, leaving no unhandled rejection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const throwing = completeApiKeyStore({ find: () => undefined, touch: () => { throw new Error('sync'); } });
      const rejecting = completeApiKeyStore({ find: () => undefined, touch: () => Promise.reject(new Error('async')) });
      expect(() => throwing.touch('k', new Date(0))).not.toThrow();
      expect(rejecting.touch('k', new Date(0))).toBeUndefined();
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(unhandled, 'a rejected touch became an unhandled rejection').toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it("answers the store's own find, throws included (503 upstream)", () => {
    const store = completeApiKeyStore({
      find: () => {
        throw new Error('db down');
      },
    });
    expect(() => store.find('k')).toThrow('db down');
  });
});
