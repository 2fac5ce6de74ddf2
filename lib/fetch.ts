// The `tessera-http/fetch` entry point: the fetch-runtime adapter (Bun, Deno, Workers). Explicit named exports only.
export { toFetchHandler } from './adapters/fetch/fetch-handler.js';
export { addressFromPlatform } from './adapters/fetch/platform-address.js';
