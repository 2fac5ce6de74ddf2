// The OpenTelemetry entry point, `tessera-http/otel`: traces and metrics of every request through
// `@opentelemetry/api` (a peer dependency; the SDK is the application's choice). Explicit named exports only.
export { openTelemetry, INSTRUMENTATION_SCOPE, type OpenTelemetryOptions } from './open-telemetry.js';
