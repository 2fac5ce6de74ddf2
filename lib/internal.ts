// The internal entry: what Tessera's own satellites (auth, OpenAPI, middleware, testing, client,
// the adapters, the facade) share with the core beyond the public API. It is bundled into them
// and is not in the package's `exports` map: nothing here is a promise to applications, and
// names move between releases. Applications import `tessera-http` (lib/index.ts).
export * from './index.js';

// The request path, for the adapters.
export { responseOf } from './app/reply.js';
