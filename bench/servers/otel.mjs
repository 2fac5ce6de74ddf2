// OpenTelemetry for the `*-otel` and `*-sdk` bench variants (npm run bench:otel), from
// BENCH_OTEL: `api` instruments with no SDK registered (the API's no-op: what an app pays for
// leaving instrumentation on when nobody collects), `sdk` starts the SDK as a production app
// would: NodeSDK with traces through its batch span processor to an OTLP/HTTP protobuf exporter
// (the harness runs the collector end, a sink on loopback, and passes OTEL_* in the environment),
// metrics through a periodic reader to the same sink, and the AsyncLocalStorage context manager.

/** `none`, `api` or `sdk`. */
export const otelMode = process.env.BENCH_OTEL ?? 'none';

/**
 * Starts the SDK when the mode is `sdk`, with the framework's instrumentations (Fastify's is an
 * SDK instrumentation; Hono's and Tessera's are middleware that use the global providers).
 */
export async function startOtelSdk(instrumentations = []) {
  if (otelMode !== 'sdk') return;
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  new NodeSDK({ serviceName: 'bench', instrumentations }).start();
}
