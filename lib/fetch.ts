// The `tessera-http/fetch` entry point: the fetch-runtime adapter (Bun, Deno, Workers). Explicit named exports only.
export { toFetchHandler } from './adapters/fetch/fetch-handler.js';
export { addressFromPlatform } from './adapters/fetch/platform-address.js';
export { bunServer } from './adapters/bun/bun-server.js';
export { denoServer } from './adapters/deno/deno-server.js';
