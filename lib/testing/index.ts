// `tessera-http/testing`: apps for tests, with parts of the module graph replaced. Explicit named exports only.
export { createTestingApp, type TestingAppBuilder, type OverrideWith, type TestingApp } from './create-testing-app.js';
// Test scaffolding of the auth module (a refresh-token store with only SPEC's required operations); it was `tessera-http/auth`'s until 0.2.
export { BasicInMemoryRefreshTokenStore } from '../auth/index-testing.js';
