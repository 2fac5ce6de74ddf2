// The `tessera-http/fetch` entry point: the fetch-runtime adapter (Bun, Deno, Workers). Explicit named exports only.
export { toFetchHandler, type FetchHandler, type FetchHandlerOptions } from './adapters/fetch/fetch-handler.js';
export type { AcceptedUpgrade, WebSocketUpgrader } from './internal/web-sockets.js';
export { bunWebSocketUpgrader, type BunWebSocketHandlers } from './adapters/bun/bun-web-socket-upgrader.js';
export { denoWebSocketUpgrader } from './adapters/deno/deno-web-socket-upgrader.js';
export { workersWebSocketUpgrader } from './adapters/workers/workers-web-socket-upgrader.js';
export { addressFromPlatform } from './adapters/fetch/platform-address.js';
export { bunServer } from './adapters/bun/bun-server.js';
export { denoServer } from './adapters/deno/deno-server.js';
// Deprecated: the upgraders' names before 0.2, under their old import until 0.3.
export { bunWebSockets, denoWebSockets, workersWebSockets, type BunWebSockets, type FetchWebSockets } from './adapters/fetch/renamed-upgraders.js';
