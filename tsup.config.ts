import { defineConfig } from 'tsup';

// One build for every entry point, ESM and CJS, with shared chunks so that classes such as
// HttpException exist once even when several entry points are loaded. @swc/core (a dev
// dependency) makes tsup emit decorator metadata for the facade; see docs/toolchain.md.
export default defineConfig({
  entry: {
    index: 'lib/index.ts',
    // `tessera-http` under the node, bun and deno export conditions: createApp with that runtime's server adapter.
    'index-node': 'lib/index-node.ts',
    'index-bun': 'lib/index-bun.ts',
    'index-deno': 'lib/index-deno.ts',
    facade: 'facade/index.ts',
    auth: 'lib/auth/index.ts',
    'auth-postgres': 'lib/auth/postgres/index.ts',
    postgres: 'lib/postgres/index.ts',
    redis: 'lib/redis/index.ts',
    jobs: 'lib/jobs/index.ts',
    openapi: 'lib/openapi/index.ts',
    node: 'lib/node.ts',
    fetch: 'lib/fetch.ts',
    middleware: 'lib/middleware/index.ts',
    otel: 'lib/otel/index.ts',
    testing: 'lib/testing/index.ts',
    // `tessera-http/testing` under the node, bun and deno export conditions: createTestingApp with that runtime's server adapter.
    'testing-node': 'lib/testing/index-node.ts',
    'testing-bun': 'lib/testing/index-bun.ts',
    'testing-deno': 'lib/testing/index-deno.ts',
    client: 'lib/client/index.ts',
    // Not in `exports`: entries of their own only so that the two clients land in separate chunks.
    // A browser bundle of createFetchClient then drops the chunk of createClient (and the core it
    // imports) whole, since the package declares no side effects (package.json "sideEffects");
    // inlined in client.js, createClient's code would be kept by its keepNames calls.
    'client-fetch': 'lib/client/fetch-client.ts',
    'client-named': 'lib/client/create-client.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  splitting: true,
  sourcemap: true,
  clean: true,
  // auth.cjs uses import.meta.url (worker-password-hasher); without the shim, require('tessera-http/auth') is a SyntaxError.
  shims: true,
  target: 'es2022',
  platform: 'neutral',
  external: ['zod', 'jose', 'oauth4webapi', '@opentelemetry/api', '@noble/hashes', '@noble/ciphers', 'hash-wasm', '@node-rs/argon2', 'swagger-ui-dist', 'ws', 'ioredis', 'pg-boss', 'bullmq', 'croner', /^node:/],
});
