// The `tessera-http/fetch` entry point: the fetch-runtime adapter (Bun, Deno, Workers). Explicit named exports only.
export { toFetchHandler, type FetchHandlerOptions } from './adapters/fetch/fetch-handler.js';
export type { FetchWebSockets } from './adapters/fetch/fetch-web-sockets.js';
export { bunWebSockets, type BunWebSockets, type BunWebSocketHandlers } from './adapters/bun/bun-web-sockets.js';
export { denoWebSockets } from './adapters/deno/deno-web-sockets.js';
export { workersWebSockets } from './adapters/workers/workers-web-sockets.js';
export { addressFromPlatform } from './adapters/fetch/platform-address.js';
export { bunServer } from './adapters/bun/bun-server.js';
export { denoServer } from './adapters/deno/deno-server.js';
