import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, defineController, defineModule, get, silentLogger } from '../index.js';
import { incomingFromRequest } from '../internal/request-path.js';
import { Context } from '../context/request-context.js';
import { openTelemetry } from './open-telemetry.js';
import { CollectingReader } from './test-sdk.test-helper.js';

// The global providers, as an application's SDK registers them (this file registers no context
// manager or propagator: only what decides whether a request is followed).
afterEach(() => {
  trace.disable();
  metrics.disable();
});

const hello = defineController({ name: 'Hello', routes: () => ({ hi: get('/hi', () => ({ hi: true })) }) });

function startOf(instrumentation: ReturnType<typeof openTelemetry>) {
  const incoming = incomingFromRequest(new Request('http://localhost/hi'));
  return instrumentation.start(incoming, new Context(incoming, {}, undefined, 1024, silentLogger));
}

describe('openTelemetry and the SDK behind it', () => {
  it('follows no request while no SDK is registered (the request takes the uninstrumented path)', () => {
    expect(startOf(openTelemetry()), 'with the API alone, start() must hand back nothing to follow').toBeUndefined();
  });

  it('follows requests once an SDK registers a tracer provider after the app was made', async () => {
    const app = await createApp(defineModule({ name: 'M', controllers: [hello] }), { logger: silentLogger, instrumentation: openTelemetry() });
    expect((await app.request('/hi')).status).toBe(200);
    const exporter = new InMemorySpanExporter();
    trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
    expect((await app.request('/hi')).status).toBe(200);
    expect(exporter.getFinishedSpans().map((span) => span.name), 'the request after registration has its span, the one before none').toEqual(['GET /hi']);
  });

  it('follows requests when only a meter provider is registered, and records into it', async () => {
    const reader = new CollectingReader();
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    const app = await createApp(defineModule({ name: 'M', controllers: [hello] }), { logger: silentLogger, instrumentation: openTelemetry() });
    await app.request('/hi');
    const { resourceMetrics } = await reader.collect();
    const names = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((metric) => metric.descriptor.name));
    expect(names, 'the duration histogram reaches the globally registered meter provider').toContain('http.server.request.duration');
  });

  it('follows requests with explicit providers whatever the globals are', () => {
    const tracerProvider = new TracerProvider();
    expect(startOf(openTelemetry({ tracerProvider })), 'an explicit SDK tracer provider is followed').toBeDefined();
  });
});
