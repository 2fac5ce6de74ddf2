import { z } from 'zod';
import { defineConfig } from '../../lib/index.js';

/**
 * The two variables that decide whether an example loads the OpenTelemetry SDK at all; the SDK
 * reads the rest of its standard environment (`OTEL_EXPORTER_OTLP_*`, `OTEL_SERVICE_NAME`) itself.
 *
 * @example
 * const { OTEL_TRACES_EXPORTER } = TelemetryConfig.load(process.env);
 */
export const TelemetryConfig = defineConfig(
  z.object({
    OTEL_TRACES_EXPORTER: z.string().optional(),
    OTEL_METRICS_EXPORTER: z.string().optional(),
  }),
  { name: 'TelemetryConfig' },
);

/**
 * OpenTelemetry for the example servers, from the SDK's standard environment only:
 * `OTEL_TRACES_EXPORTER` (`otlp`, with `OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_EXPORTER_OTLP_PROTOCOL`
 * `http/json` or `http/protobuf`), `OTEL_METRICS_EXPORTER` (`prometheus`, with
 * `OTEL_EXPORTER_PROMETHEUS_PORT`; or `otlp`), `OTEL_SERVICE_NAME`. When neither exporter is set,
 * no SDK is loaded at all: the app's `openTelemetry()` instrumentation then talks to the API's
 * no-op and costs next to nothing.
 *
 * @example
 * const telemetry = await startTelemetry(process.env);
 * // ... serve; on SIGTERM:
 * await telemetry.stop(); // flushes the spans still buffered
 */
export async function startTelemetry(env: object): Promise<{ readonly started: boolean; stop(): Promise<void> }> {
  const { OTEL_TRACES_EXPORTER: traces, OTEL_METRICS_EXPORTER: metrics } = TelemetryConfig.load(env);
  const wanted = (value: string | undefined) => value !== undefined && value !== 'none';
  if (!wanted(traces) && !wanted(metrics)) return { started: false, stop: async () => undefined };
  // NodeSDK defaults an unset exporter to otlp; the operator asked for one signal only.
  if (!wanted(traces)) process.env.OTEL_TRACES_EXPORTER = 'none';
  if (!wanted(metrics)) process.env.OTEL_METRICS_EXPORTER = 'none';
  process.env.OTEL_LOGS_EXPORTER ??= 'none';
  // Loaded only now: an app run without the environment never loads the SDK.
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK();
  sdk.start();
  return { started: true, stop: () => sdk.shutdown() };
}
