import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/**
 * Collects on demand, for tests: `reader.collect()` reads what the instruments hold now.
 *
 * @example
 * const reader = new CollectingReader();
 * metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
 */
export class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

/**
 * The real OpenTelemetry SDK, wired for tests: spans in memory, metrics collected on demand, the
 * AsyncLocalStorage context manager and the W3C propagator registered globally (as NodeSDK does).
 *
 * @example
 * const sdk = startTestSdk();
 * const app = await createApp(M, { instrumentation: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }) });
 * sdk.spans(); // the finished spans
 */
export function startTestSdk() {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  const reader = new CollectingReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    tracerProvider,
    meterProvider,
    spans: () => exporter.getFinishedSpans(),
    reset: () => exporter.reset(),
    async collectMetrics(): Promise<ResourceMetrics> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics;
    },
    async stop(): Promise<void> {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
      propagation.disable();
    },
  };
}
