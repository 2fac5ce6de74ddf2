// `tessera-http/testing`: apps for tests, with parts of the module graph replaced. Explicit named exports only.
export { createTestingApp, type TestingAppBuilder, type OverrideWith, type TestingApp } from './create-testing-app.js';
