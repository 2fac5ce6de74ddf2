import type { ClientAddressOptions, ModuleInput } from '../../../index.js';
import type { StoreClass } from '../../shared/store-class.js';
import type { ApiKeyStore } from './api-key-store.js';

/**
 * Options of machine API keys; omit them to ignore the `x-api-key` header entirely.
 *
 * @example
 * apiKeys: { store: PgApiKeyStore, imports: [DbModule], cacheSeconds: 60, scopedRoutesOnly: true }
 */
export interface ApiKeyOptions {
  readonly store: StoreClass<ApiKeyStore>;
  readonly imports?: readonly ModuleInput[];
  /**
   * @deprecated Since 0.2: give the rule once, to the app: `createApp(root, { clientAddress })`
   * (the same fields); the key's `allowedCidrs` are checked against `ctx.clientAddress`. Still
   * read for one minor version, while the app has no `clientAddress` of its own (both: the boot
   * fails). Removed in 0.3.
   */
  readonly clientIp?: ClientAddressOptions;
  /** Seconds a found key record is kept in this process; 0 (default) reads the store every time. A revoked key may be accepted for up to this long. */
  readonly cacheSeconds?: number;
  /** `touch` is called at most once per key per this many seconds; default 300. */
  readonly lastUsedIntervalSeconds?: number;
  /** When true, a key is refused (403) on every route without `RequireScopes`; public routes stay public. */
  readonly scopedRoutesOnly?: boolean;
}
