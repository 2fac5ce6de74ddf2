// The app of the runtime trace checks (trace-context.test.ts), built against dist/: the real
// OpenTelemetry SDK (spans in memory), the AsyncLocalStorage context manager and the W3C
// propagator registered as NodeSDK registers them, and routes whose handlers make a span of
// their own after an await and after the body is read, so nesting across async steps shows.
// GET /spans (not traced) hands the finished spans to the test.
import { context, propagation } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post } from '../../../dist/index.js';
import { openTelemetry } from '../../../dist/otel.js';

/** @example const app = await createTraceApp({ server: bunServer }); */
export async function createTraceApp(options = {}) {
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const userTracer = tracerProvider.getTracer('user-code');
  const userSpan = (name, value) => userTracer.startActiveSpan(name, (span) => (span.end(), value));
  const posts = defineController({
    name: 'Posts',
    prefix: '/posts',
    routes: () => ({
      one: get('/:id', async (ctx) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return userSpan('user.after-await', { id: ctx.params.id });
      }),
      create: post('/', { body: z.object({ title: z.string() }), status: 201 }, (ctx) => userSpan('user.after-body', { title: ctx.body.title })),
    }),
  });
  const spans = defineController({
    name: 'Spans',
    routes: () => ({
      spans: get('/spans', () =>
        exporter.getFinishedSpans().map((span) => ({
          name: span.name,
          kind: span.kind,
          traceId: span.spanContext().traceId,
          spanId: span.spanContext().spanId,
          parentSpanId: span.parentSpanContext?.spanId,
          attributes: span.attributes,
        })),
      ),
    }),
  });
  return createApp(defineModule({ name: 'TraceProbe', controllers: [posts, spans] }), {
    ...options,
    instrumentation: openTelemetry({ tracerProvider, ignorePaths: ['/spans'] }),
  });
}
