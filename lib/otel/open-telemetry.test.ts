import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, jsonLogger, NotFoundException, post, silentLogger, type App, type AppOptions } from '../index.js';
import { serve, type NodeServer } from '../node.js';
import { openTelemetry } from './open-telemetry.js';
import { startTestSdk } from './test-sdk.test-helper.js';

const sdk = startTestSdk();
afterAll(() => sdk.stop());
afterEach(() => sdk.reset());

const posts = defineController({
  name: 'Posts',
  prefix: '/posts',
  routes: () => ({
    one: get('/:id', (ctx) => {
      if (ctx.params.id === 'missing') throw new NotFoundException('no such post');
      return { id: ctx.params.id };
    }),
    create: post('/', { body: z.object({ title: z.string() }), status: 201 }, (ctx) =>
      // A span made by user code in the handler: it must nest under the request's span.
      sdk.tracerProvider.getTracer('user-code').startActiveSpan('store.insert', (span) => {
        span.end();
        return { title: ctx.body.title };
      }),
    ),
    slow: get('/slow/:id', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return sdk.tracerProvider.getTracer('user-code').startActiveSpan('after-await', (span) => { span.end(); return { ok: true }; });
    }),
    broken: get('/broken/:id', () => {
      throw new TypeError('the store is gone');
    }),
  }),
});

function appWith(options: AppOptions = {}): Promise<App> {
  return createApp(defineModule({ name: 'M', controllers: [posts] }), {
    logger: silentLogger,
    instrumentation: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
    ...options,
  });
}

const serverSpans = () => sdk.spans().filter((span) => span.kind === SpanKind.SERVER);

describe('openTelemetry: traces', () => {
  it('makes one SERVER span named {method} {route template} with the HTTP attributes', async () => {
    const app = await appWith();
    // Bun and Deno pass the Host header on their Requests, as Node does on its messages.
    await app.request('http://api.example.com:8080/posts/42?token=secret', { headers: { host: 'api.example.com:8080', 'user-agent': 'tests/1.0' } });
    const [span] = serverSpans();
    expect(serverSpans(), 'one server span per request').toHaveLength(1);
    expect(span?.name).toBe('GET /posts/:id');
    expect(span?.attributes).toMatchObject({
      'http.request.method': 'GET',
      'url.path': '/posts/42',
      'url.scheme': 'http',
      'http.route': '/posts/:id',
      'http.response.status_code': 200,
      'server.address': 'api.example.com',
      'server.port': 8080,
      'user_agent.original': 'tests/1.0',
    });
    expect(span?.attributes, 'url.query only when configured').not.toHaveProperty('url.query');
    expect(span?.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records url.query when captureQuery is set', async () => {
    const app = await appWith({ instrumentation: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider, captureQuery: true }) });
    await app.request('/posts/1?page=2');
    expect(serverSpans()[0]?.attributes['url.query']).toBe('page=2');
  });

  it('names a span by the method alone when no route matched', async () => {
    const app = await appWith();
    expect((await app.request('/nowhere')).status).toBe(404);
    expect(serverSpans()[0]?.name).toBe('GET');
    expect(serverSpans()[0]?.attributes).not.toHaveProperty('http.route');
  });

  it('continues an incoming W3C trace: same trace id, the caller\u2019s span as parent', async () => {
    const app = await appWith();
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    await app.request('/posts/1', { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
    const span = serverSpans()[0];
    expect(span?.spanContext().traceId).toBe(traceId);
    expect(span?.parentSpanContext?.spanId).toBe('00f067aa0ba902b7');
  });

  it('marks a thrown error\u2019s 500 as an error with the exception recorded', async () => {
    const app = await appWith();
    expect((await app.request('/posts/broken/1')).status).toBe(500);
    const span = serverSpans()[0];
    expect(span?.status.code).toBe(SpanStatusCode.ERROR);
    expect(span?.attributes['error.type']).toBe('TypeError');
    expect(span?.events.map((event) => event.name)).toContain('exception');
    expect(span?.events[0]?.attributes?.['exception.message']).toBe('the store is gone');
  });

  it('leaves a 4xx span unset, without error.type', async () => {
    const app = await appWith();
    expect((await app.request('/posts/missing')).status).toBe(404);
    expect(serverSpans()[0]?.status.code).toBe(SpanStatusCode.UNSET);
    expect(serverSpans()[0]?.attributes).not.toHaveProperty('error.type');
  });

  it('makes the request span active in the handler, so a user span nests under it (body read first)', async () => {
    const app = await appWith();
    await app.request('/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"t"}' });
    const server = serverSpans()[0];
    const child = sdk.spans().find((span) => span.name === 'store.insert');
    expect(child?.parentSpanContext?.spanId, 'the user span is a child of the request span').toBe(server?.spanContext().spanId);
    expect(child?.spanContext().traceId).toBe(server?.spanContext().traceId);
  });

  it('keeps the request span active across an await in the handler', async () => {
    const app = await appWith();
    await app.request('/posts/slow/1');
    const child = sdk.spans().find((span) => span.name === 'after-await');
    expect(child?.parentSpanContext?.spanId).toBe(serverSpans()[0]?.spanContext().spanId);
  });

  it('does not trace the health endpoints', async () => {
    const app = await appWith({ health: true });
    await app.request('/health/live');
    await app.request('/health/ready');
    expect(serverSpans()).toEqual([]);
  });

  it('puts trace_id and span_id on the request\u2019s log lines and the access line', async () => {
    const lines: string[] = [];
    const app = await appWith({ logger: jsonLogger({ write: (line) => lines.push(line) }), accessLog: true });
    await app.request('/posts/broken/1');
    const span = serverSpans()[0];
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(parsed.map((line) => line.msg)).toEqual(['Unhandled error while serving a request', 'request completed']);
    for (const line of parsed) expect(line, `${String(line.msg)} carries the trace`).toMatchObject({ trace_id: span?.spanContext().traceId, span_id: span?.spanContext().spanId });
  });

  it('puts no credential in any span attribute or event', async () => {
    const app = await appWith();
    await app.request('/posts/1?api_key=tk_query_secret', { headers: { authorization: 'Bearer eyJ.secret.sig', cookie: 'sid=cookie-secret', 'x-api-key': 'tk_header_secret' } });
    const everything = JSON.stringify(sdk.spans().map((span) => ({ attributes: span.attributes, events: span.events, name: span.name })));
    for (const secret of ['eyJ.secret.sig', 'cookie-secret', 'tk_header_secret', 'tk_query_secret']) expect(everything, `a span carries ${secret}`).not.toContain(secret);
  });
});

describe('openTelemetry: metrics', () => {
  it('records http.server.request.duration in seconds with method, route, status and the conventions\u2019 buckets', async () => {
    const app = await appWith();
    await app.request('/posts/1');
    await app.request('/posts/broken/2');
    const collected = await sdk.collectMetrics();
    const metric = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'http.server.request.duration');
    expect(metric?.descriptor.unit).toBe('s');
    const points = metric?.dataPoints ?? [];
    const attributes = points.map((point) => point.attributes);
    expect(attributes).toContainEqual({ 'http.request.method': 'GET', 'url.scheme': 'http', 'http.response.status_code': 200, 'http.route': '/posts/:id' });
    expect(attributes).toContainEqual({ 'http.request.method': 'GET', 'url.scheme': 'http', 'http.response.status_code': 500, 'http.route': '/posts/broken/:id', 'error.type': 'TypeError' });
    const boundaries = (points[0]?.value as { buckets: { boundaries: number[] } }).buckets.boundaries;
    expect(boundaries).toEqual([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);
    expect(JSON.stringify(attributes), 'no raw path or id in metric attributes').not.toMatch(/posts\/1|broken\/2/);
  });

  it('counts active requests up and back down', async () => {
    const app = await appWith();
    await app.request('/posts/1');
    const collected = await sdk.collectMetrics();
    const metric = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'http.server.active_requests');
    const get = metric?.dataPoints.find((point) => point.attributes['http.request.method'] === 'GET');
    expect(get?.attributes, 'labelled by method and scheme only').toEqual({ 'http.request.method': 'GET', 'url.scheme': 'http' });
    expect(metric?.dataPoints.map((point) => point.value), 'every request that began has ended').toEqual(metric?.dataPoints.map(() => 0));
  });
});

describe('openTelemetry over a real Node socket', () => {
  let server: NodeServer | undefined;
  beforeAll(async () => {
    server = await serve(await appWith(), { port: 0 });
  });
  afterAll(() => server?.close());

  it('nests the handler\u2019s span under the request span when the body ends in a socket event', async () => {
    const res = await fetch(`${server?.url}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"over a socket"}' });
    expect(res.status).toBe(201);
    const serverSpan = serverSpans()[0];
    expect(serverSpan?.attributes['network.protocol.version']).toBe('1.1');
    expect(serverSpan?.attributes['client.address']).toBe('127.0.0.1');
    const child = sdk.spans().find((span) => span.name === 'store.insert');
    expect(child?.parentSpanContext?.spanId).toBe(serverSpan?.spanContext().spanId);
  });
});
