// Internal entry (not in the package's `exports`; names move between releases): where the
// library's own spans and counters go, which tessera-http/otel fills and auth records into.
export { LIBRARY_TELEMETRY_KEY, LIBRARY_TELEMETRY, type LibraryTelemetry, type TelemetryAttributes, type TelemetryCounter, type TelemetryHistogram } from '../telemetry/library-telemetry.js';
