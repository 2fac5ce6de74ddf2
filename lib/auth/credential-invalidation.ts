import { unrefTimer, type PubSub } from '../internal.js';

/** The topic revocations travel on between instances. */
export const INVALIDATION_TOPIC = 'tessera:auth:invalidate';

/** How long to wait before subscribing again when the bus refused (it is down at boot). */
const RESUBSCRIBE_MS = 2_000;

/**
 * Tells every instance that a credential was revoked, so that none keeps accepting it from its
 * cache: the auth module's `CREDENTIAL_INVALIDATION`. Each instance listens on the app's PubSub
 * (`PUB_SUB`; a shared engine such as Redis or PostgreSQL LISTEN/NOTIFY reaches them all) and
 * drops the matching cached record at once, whatever `apiKeys.cacheSeconds` is. When the bus is
 * down, nothing is lost but time: caches fall back to their TTL, and the engine logs its outage.
 *
 * @example
 * await store.revoke(id);
 * await invalidation.apiKeyRevoked(id); // every instance refuses the key within the bus's delivery time
 */
export interface CredentialInvalidation {
  /**
   * Drops the API key's cached record on this instance and publishes the revocation. Resolves
   * once published; rejects when the bus refused it (other instances then wait out their TTL).
   */
  apiKeyRevoked(id: string): Promise<void>;
}

/** What the invalidation needs of the auth runtime: the API-key cache to drop entries from. */
interface ForgetsApiKeys {
  readonly apiKeys: { forget(id: string): void } | undefined;
}

/**
 * Starts listening for revocations on `bus` and answers the publishing side. Listening starts at
 * once and is retried every 2 s while the bus refuses it; `onModuleDestroy` stops it.
 *
 * @example
 * const invalidation = startCredentialInvalidation(runtime, bus);
 */
export function startCredentialInvalidation(runtime: ForgetsApiKeys, bus: PubSub): CredentialInvalidation & { onModuleDestroy(): Promise<void> } {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const handler = (message: string) => {
    let event: { kind?: unknown; id?: unknown };
    try {
      event = JSON.parse(message) as { kind?: unknown; id?: unknown };
    } catch {
      return;
    }
    if (event.kind === 'api-key' && typeof event.id === 'string') runtime.apiKeys?.forget(event.id);
  };
  const listen = () => {
    bus.subscribe(INVALIDATION_TOPIC, handler).catch(() => {
      if (stopped) return;
      retry = unrefTimer(setTimeout(listen, RESUBSCRIBE_MS));
    });
  };
  listen();
  return {
    async apiKeyRevoked(id) {
      runtime.apiKeys?.forget(id);
      await bus.publish(INVALIDATION_TOPIC, JSON.stringify({ kind: 'api-key', id }));
    },
    async onModuleDestroy() {
      stopped = true;
      clearTimeout(retry);
      await bus.unsubscribe(INVALIDATION_TOPIC, handler).catch(() => undefined);
    },
  };
}
