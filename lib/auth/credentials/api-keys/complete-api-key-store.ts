import type { ApiKeyRecord } from './api-key-record.js';
import type { ApiKeyStore } from './api-key-store.js';

/**
 * The API-key store contract the authenticator works against: `touch` always present and never
 * failing the caller. Made once, at construction, by {@link completeApiKeyStore}.
 *
 * @example
 * const store: CompleteApiKeyStore = completeApiKeyStore({ find: (id) => rows.get(id) });
 * store.touch(id, new Date()); // a no-op for a store without touch
 */
export interface CompleteApiKeyStore {
  /** The store's own `find`, as is: throwing means the key's state cannot be told (503). */
  find(id: string): ApiKeyRecord | null | undefined | Promise<ApiKeyRecord | null | undefined>;
  /** Best effort, never awaited: a throw or rejection of the store's `touch` is ignored (SPEC). */
  touch(id: string, at: Date): void;
}

/**
 * Adapts an API-key store written to SPEC's contract (`touch` optional) to the complete one: a
 * store without `touch` keeps no last-used time, so its `touch` is a no-op; a store's own `touch`
 * is called without waiting, its failures ignored, as SPEC says.
 *
 * @example
 * const store = completeApiKeyStore(new InMemoryApiKeyStore());
 */
export function completeApiKeyStore(store: ApiKeyStore): CompleteApiKeyStore {
  // Read once (a Proxy such as the tracing wrapper answers undefined for an absent method).
  const touch = store.touch;
  return {
    find: (id) => store.find(id),
    touch:
      typeof touch === 'function'
        ? (id, at) => {
            try {
              const pending = touch.call(store, id, at);
              // Not awaited: best effort. The catch handler keeps a rejection from becoming unhandled.
              if (pending !== undefined) Promise.resolve(pending).catch(ignore);
            } catch {
              // A synchronous throw is ignored too (SPEC: touch failures are ignored).
            }
          }
        : ignore,
  };
}

function ignore(): void {}
