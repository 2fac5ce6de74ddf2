import { metrics, trace } from '@opentelemetry/api';
import { MeterProvider, type DataPoint } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp, defineModule, silentLogger, type PubSub } from '../../lib/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { CollectingReader } from '../../lib/otel/test-sdk.test-helper.js';

// The app's bus counts what it drops (an engine that refuses a message) on the providers the app
// gives openTelemetry(), outside any request.

afterEach(() => {
  trace.disable();
  metrics.disable();
});

/** An engine whose every publish is refused, as a Redis that is down refuses them. */
function refusingEngine(): PubSub {
  return {
    publish: () => Promise.reject(new Error('ECONNREFUSED')),
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
}

describe('the bus in telemetry', () => {
  it('counts each message the engine refused as tessera.pubsub.messages.dropped on the app\u2019s own meter provider', async () => {
    const reader = new CollectingReader();
    const meterProvider = new MeterProvider({ readers: [reader] });
    const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: new InMemorySpanExporter() })] });
    const app = await createApp(defineModule({ name: 'M' }), { logger: silentLogger, pubsub: refusingEngine(), instrumentation: openTelemetry({ meterProvider, tracerProvider }) });
    await app.webSockets.publish('posts', { id: '1' });
    await app.webSockets.publish('posts', { id: '2' });
    const { resourceMetrics } = await reader.collect();
    const dropped = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((metric) => metric.descriptor.name === 'tessera.pubsub.messages.dropped');
    expect(dropped, 'the counter exists on the given provider').toBeDefined();
    const points = (dropped?.dataPoints ?? []) as DataPoint<number>[];
    expect(points.map((point) => [point.attributes['tessera.pubsub.reason'], point.value])).toEqual([['refused', 2]]);
  });
});
