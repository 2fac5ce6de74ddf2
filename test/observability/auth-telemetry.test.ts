import { metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { MeterProvider, type DataPoint, type Histogram, type ResourceMetrics } from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, createToken, defineController, defineModule, get, InMemoryRateLimitCounter, silentLogger, TooManyRequestsException, type App, type Instrumentation } from '../../lib/index.js';
import { defineAuthModule, generateApiKey, InMemoryApiKeyStore, recordRateLimited, RequireScopes, type ApiKeyRecord, type ApiKeyStore } from '../../lib/auth/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { CollectingReader, startTestSdk } from '../../lib/otel/test-sdk.test-helper.js';

// The auth module's spans and counters reach the providers the app gives `openTelemetry()`, like
// its request spans, and nowhere else: the global providers registered here as a control see
// none of it. The same error is typed alike in a request span and an auth span.

const sdk = startTestSdk();
afterEach(() => {
  sdk.reset();
  trace.disable();
  metrics.disable();
});
afterAll(() => sdk.stop());

/** Registers fresh global providers, as an SDK would, and answers what reached them. */
function registerGlobals() {
  const exporter = new InMemorySpanExporter();
  const reader = new CollectingReader();
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
  return {
    spans: () => exporter.getFinishedSpans().map((span) => span.name),
    async collect(): Promise<ResourceMetrics> {
      return (await reader.collect()).resourceMetrics;
    },
    async authMetrics(): Promise<string[]> {
      const { resourceMetrics } = await reader.collect();
      return resourceMetrics.scopeMetrics.filter((scope) => scope.scope.name === 'tessera-http/auth').flatMap((scope) => scope.metrics.map((m) => m.descriptor.name));
    },
  };
}

/** Thrown by the store below; it never sets `name`, so `error.name` would say just `Error`. */
class StoreDownError extends Error {}

const Claims = z.object({ sub: z.string() });
const auth = defineAuthModule(Claims);
const STORE = createToken<ApiKeyStore>('SwitchableStore');

/** An in-memory key store that fails with a StoreDownError while `down`. */
class SwitchableStore implements ApiKeyStore {
  readonly inner = new InMemoryApiKeyStore();
  down = false;
  async find(id: string): Promise<ApiKeyRecord | undefined> {
    if (this.down) throw new StoreDownError('the key table is unreachable');
    return this.inner.find(id);
  }
}

async function appWith(instrumentation: Instrumentation | undefined): Promise<{ app: App; store: SwitchableStore; key: string }> {
  const store = new SwitchableStore();
  const generated = generateApiKey();
  store.inner.add({ id: generated.id, secretHash: generated.secretHash, claims: { sub: 'svc' }, scopes: ['posts:read'] });
  const counter = new InMemoryRateLimitCounter({ limit: 1, windowMs: 60_000, clock: createManualClock(0) });
  const posts = defineController({
    name: 'Posts',
    metadata: [RequireScopes('posts:read')],
    routes: () => ({
      list: get('/posts', () => []),
      limited: get('/limited', async () => {
        if ((await counter.hit('one')) > 0) {
          recordRateLimited();
          throw new TooManyRequestsException('Over the limit');
        }
        return 'ok';
      }),
      broken: get('/broken', () => {
        throw new StoreDownError('the posts table is unreachable');
      }),
    }),
  });
  const root = defineModule({
    name: 'Root',
    imports: [
      auth.AuthModule.forRoot({
        secret: 'auth-telemetry-test-secret-0123456789abcdef',
        protectAllRoutes: true,
        apiKeys: { store: { useExisting: STORE }, imports: [defineModule({ name: 'StoreModule', providers: [{ provide: STORE, useValue: store }], exports: [STORE] })] },
      }),
    ],
    controllers: [posts],
  });
  const app = await createApp(root, { logger: silentLogger, ...(instrumentation === undefined ? {} : { instrumentation }) });
  return { app, store, key: generated.key };
}

function counterValues(collected: ResourceMetrics, name: string): Record<string, number> {
  const metric = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  const out: Record<string, number> = {};
  for (const point of (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[]) out[String(point.attributes.reason ?? '')] = point.value as number;
  return out;
}

const explicit = () => openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider });
const serverSpans = () => sdk.spans().filter((span) => span.kind === SpanKind.SERVER);

describe('auth telemetry with providers given to openTelemetry()', () => {
  it('counts a refused token in the given meter provider and marks the request span, none of it in the globals', async () => {
    const globals = registerGlobals();
    const { app } = await appWith(explicit());
    expect((await app.request('/posts')).status).toBe(401);
    expect(counterValues(await sdk.collectMetrics(), 'tessera.auth.token.refusals'), 'the refusal counted in the app’s meter provider').toEqual({ missing: 1 });
    expect(serverSpans()[0]?.attributes).toMatchObject({ 'tessera.auth.method': 'none', 'tessera.auth.refusal': 'missing' });
    expect(await globals.authMetrics(), 'no auth counter in the global meter provider').toEqual([]);
  });

  it('makes the key store lookup a child span of the request span in the given tracer provider', async () => {
    const globals = registerGlobals();
    const { app, key } = await appWith(explicit());
    expect((await app.request('/posts', { headers: { 'x-api-key': key } })).status).toBe(200);
    const request = serverSpans()[0];
    const find = sdk.spans().find((span) => span.name === 'ApiKeyStore.find');
    expect(find, 'the store span is in the app’s tracer provider').toBeDefined();
    expect(find?.parentSpanContext?.spanId, 'nested under the request span').toBe(request?.spanContext().spanId);
    expect(request?.attributes['tessera.auth.method']).toBe('api-key');
    expect(globals.spans(), 'no span in the global tracer provider').toEqual([]);
  });

  it('counts a rate-limited request in the given meter provider', async () => {
    const { app, key } = await appWith(explicit());
    expect((await app.request('/limited', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect((await app.request('/limited', { headers: { 'x-api-key': key } })).status).toBe(429);
    const metric = (await sdk.collectMetrics()).scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'tessera.auth.rate_limited');
    expect(metric?.dataPoints[0]?.value, 'one 429 counted').toBe(1);
  });

  it('types a failure alike in an auth span and a request span: the error’s class, not its name', async () => {
    const { app, key, store } = await appWith(explicit());
    store.down = true;
    expect((await app.request('/posts', { headers: { 'x-api-key': key } })).status).toBe(503);
    const find = sdk.spans().find((span) => span.name === 'ApiKeyStore.find');
    expect(find?.status.code).toBe(SpanStatusCode.ERROR);
    expect(find?.attributes['error.type'], 'the auth span names the class').toBe('StoreDownError');
    expect(JSON.stringify(find?.attributes), 'never the error message').not.toContain('unreachable');
    store.down = false;
    sdk.reset();
    expect((await app.request('/broken', { headers: { 'x-api-key': key } })).status).toBe(500);
    expect(serverSpans()[0]?.attributes['error.type'], 'the request span names it the same way').toBe('StoreDownError');
  });
});

describe('auth telemetry with the global providers', () => {
  it('reaches a meter provider registered after the app was made (openTelemetry() reads the globals per request)', async () => {
    const { app } = await appWith(openTelemetry());
    expect((await app.request('/posts')).status, 'before any SDK: nothing is followed').toBe(401);
    const globals = registerGlobals();
    expect((await app.request('/posts')).status).toBe(401);
    expect(counterValues(await globals.collect(), 'tessera.auth.token.refusals'), 'only the refusal after registration is counted').toEqual({ missing: 1 });
  });

  it('records nothing without an instrumentation, even with global providers registered', async () => {
    const globals = registerGlobals();
    const { app, key } = await appWith(undefined);
    expect((await app.request('/posts')).status).toBe(401);
    expect((await app.request('/posts', { headers: { 'x-api-key': key } })).status).toBe(200);
    expect(await globals.authMetrics(), 'no auth counter').toEqual([]);
    expect(globals.spans(), 'no auth span').toEqual([]);
  });
});
