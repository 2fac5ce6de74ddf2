// `tessera-http/testing` as deno resolves it (the package's `deno` export condition): createTestingApp
// whose app listens on `Deno.serve` (`denoServer`) unless `server` is given, as `tessera-http` itself does
// under that condition (lib/index-deno.ts). Without this entry, `listen()` on a testing app threw
// SERVER_ADAPTER_MISSING, since the testing entry builds apps with the core's createApp.
import type { AppOptions, ModuleInput } from '../index.js';
import { denoServer as runtimeServer } from '../adapters/deno/deno-server.js';
import { createTestingApp as createCoreTestingApp, type TestingAppBuilder } from './create-testing-app.js';

export type { TestingAppBuilder, OverrideWith, TestingApp } from './create-testing-app.js';
// Test scaffolding of the auth module (a refresh-token store with only SPEC's required operations); it was `tessera-http/auth`'s until 0.2.
export { BasicInMemoryRefreshTokenStore } from '../auth/index-testing.js';

/**
 * Builds an app for a test with parts of its module graph replaced (see
 * lib/testing/create-testing-app.ts); `app.listen(port)` serves it on `Deno.serve` unless `appOptions.server` names another adapter.
 *
 * @example
 * const app = await createTestingApp(AppModule).overrideProvider(PostsStore).useValue(fakeStore).compile();
 * const server = await app.listen(0);
 */
export function createTestingApp(rootModule: ModuleInput, appOptions: AppOptions = {}): TestingAppBuilder {
  return createCoreTestingApp(rootModule, appOptions.server === undefined ? { ...appOptions, server: runtimeServer } : appOptions);
}
