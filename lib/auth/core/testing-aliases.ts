// Test scaffolding `tessera-http/auth` exported before it moved to `tessera-http/testing` (issue
// 47): kept as a deprecated alias for one minor version, so an app's tests compiled against 0.1
// keep compiling. The alias is the very class the testing entry exports, so `instanceof` holds.
import { BasicInMemoryRefreshTokenStore as TestingStore } from '../sessions/issuing/basic-in-memory-refresh-token-store.js';

/**
 * @deprecated Since 0.2: import `BasicInMemoryRefreshTokenStore` from `tessera-http/testing`.
 * Removed in 0.3.
 *
 * @example
 * const store = new BasicInMemoryRefreshTokenStore(createManualClock(0));
 */
export const BasicInMemoryRefreshTokenStore: typeof TestingStore = TestingStore;
/** @deprecated Since 0.2: import `BasicInMemoryRefreshTokenStore` from `tessera-http/testing`. Removed in 0.3. */
export type BasicInMemoryRefreshTokenStore = TestingStore;
