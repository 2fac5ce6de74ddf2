// `tessera-http` as bun resolves it (the package's `bun` export condition): the core entry, with
// a createApp whose `app.listen` serves on `Bun.serve` (`bunServer` from `tessera-http/fetch`) unless `server` is given. The core itself
// imports no adapter; this entry, above it, pairs the two.
import { createApp as createCoreApp, type App, type AppOptions, type ModuleInput } from './index.js';
import { bunServer as runtimeServer } from './adapters/bun/bun-server.js';

export * from './index.js';

/**
 * Builds an application (see the core's `createApp`); `app.listen(port)` serves it on
 * `Bun.serve` (`bunServer` from `tessera-http/fetch`) unless `options.server` names another adapter.
 *
 * @example
 * const app = await createApp(AppModule);
 * await app.listen(3000);
 */
export function createApp(root: ModuleInput, options: AppOptions = {}): Promise<App> {
  return createCoreApp(root, options.server === undefined ? { ...options, server: runtimeServer } : options);
}
