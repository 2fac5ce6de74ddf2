import { metrics, SpanKind, trace } from '@opentelemetry/api';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, silentLogger, type App } from '../../lib/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { startTestSdk } from '../../lib/otel/test-sdk.test-helper.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

// The auth module's telemetry, on the tenants app: outcome attributes on the request span, child
// spans for store calls, refusal counters; and never a credential in any of them.
const sdk = startTestSdk();
let app: App;
const secrets: string[] = [];

const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

async function counterValues(name: string): Promise<Record<string, number>> {
  const collected = await sdk.collectMetrics();
  const metric = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  const out: Record<string, number> = {};
  for (const point of (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[]) out[String(point.attributes.reason ?? '')] = point.value as number;
  return out;
}

const serverSpan = (name: string) => sdk.spans().filter((span) => span.kind === SpanKind.SERVER && span.name === name);

beforeAll(async () => {
  // The auth module reports through the global API, as it would under NodeSDK.
  trace.setGlobalTracerProvider(sdk.tracerProvider);
  metrics.setGlobalMeterProvider(sdk.meterProvider);
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-telemetry-test-secret-0123456789', API_KEY_RATE_LIMIT: '2' }, () => undefined);
  app = await createApp(createTenantsModule(config), { logger: silentLogger, instrumentation: openTelemetry() });
});
afterAll(async () => {
  trace.disable();
  metrics.disable();
  await sdk.stop();
});

describe('auth telemetry on the tenants app', () => {
  it('counts a request without a token as a token refusal (missing) and marks its span', async () => {
    expect((await app.request('/me')).status).toBe(401);
    expect(await counterValues('tessera.auth.token.refusals')).toMatchObject({ missing: 1 });
    expect(serverSpan('GET /me').at(-1)?.attributes).toMatchObject({ 'tessera.auth.method': 'none', 'tessera.auth.refusal': 'missing' });
  });

  it('records sign-in store calls as child spans of the request, and the bearer method on the next request', async () => {
    const signIn = await app.request('/auth/sign-in', json({ identifier: 'alice@acme.test', password: DEMO_PASSWORD }));
    expect(signIn.status).toBe(200);
    const pair = (await signIn.json()) as { accessToken: string; refreshToken: string };
    secrets.push(pair.accessToken, pair.refreshToken, DEMO_PASSWORD);
    const request = serverSpan('POST /auth/sign-in').at(-1);
    const storeSpans = sdk.spans().filter((span) => span.name.startsWith('CredentialStore.') || span.name.startsWith('RefreshTokenStore.'));
    expect(storeSpans.map((span) => span.name)).toContain('RefreshTokenStore.create');
    for (const span of storeSpans) expect(span.parentSpanContext?.spanId, `${span.name} nests under the request`).toBe(request?.spanContext().spanId);
    expect((await app.request('/me', { headers: { authorization: `Bearer ${pair.accessToken}` } })).status).toBe(200);
    expect(serverSpan('GET /me').at(-1)?.attributes['tessera.auth.method']).toBe('bearer');

    // Refresh, then replay the old refresh token: reuse is detected and counted.
    expect((await app.request('/auth/refresh', json({ refreshToken: pair.refreshToken }))).status).toBe(200);
    expect((await app.request('/auth/refresh', json({ refreshToken: pair.refreshToken }))).status).toBe(401);
    const collected = await sdk.collectMetrics();
    const reuse = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'tessera.auth.refresh_token.reuse');
    expect(reuse?.dataPoints[0]?.value, 'one reuse detected').toBe(1);
  });

  it('counts API-key refusals by reason, rate limits, and spans the key store lookup', async () => {
    const signIn = await app.request('/auth/sign-in', json({ identifier: 'alice@acme.test', password: DEMO_PASSWORD }));
    const { accessToken } = (await signIn.json()) as { accessToken: string };
    const created = await app.request('/tenants/acme/api-keys', json({ name: 'reader', scopes: ['posts:read'] }, { authorization: `Bearer ${accessToken}` }));
    const { key, id } = (await created.json()) as { key: string; id: string };
    secrets.push(accessToken, key, key.slice(-20));
    const headers = { 'x-api-key': key };
    expect((await app.request('/tenants/acme/posts', { headers })).status).toBe(200);
    const used = serverSpan('GET /tenants/:tenantId/posts').at(-1);
    expect(used?.attributes['tessera.auth.method']).toBe('api-key');
    const find = sdk.spans().find((span) => span.name === 'ApiKeyStore.find' && span.parentSpanContext?.spanId === used?.spanContext().spanId);
    expect(find, 'the store lookup is a child span of the request').toBeDefined();
    expect((await app.request('/tenants/acme/posts', { headers })).status).toBe(200);
    expect((await app.request('/tenants/acme/posts', { headers })).status, 'the third request is over the limit of 2').toBe(429);
    const limited = await sdk.collectMetrics();
    expect(limited.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'tessera.auth.rate_limited')?.dataPoints[0]?.value).toBe(1);

    expect((await app.request('/tenants/acme/posts', { headers: { 'x-api-key': `${key.slice(0, -4)}AAAA` } })).status).toBe(401);
    expect((await app.request(`/tenants/acme/api-keys/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${accessToken}` } })).status).toBe(204);
    expect((await app.request('/tenants/acme/posts', { headers })).status).toBe(401);
    expect(await counterValues('tessera.auth.api_key.refusals')).toMatchObject({ wrong_secret: 1, revoked: 1 });
  });

  it('puts no token, key, refresh token or password in any span or metric', async () => {
    const spans = JSON.stringify(sdk.spans().map((span) => ({ name: span.name, attributes: span.attributes, events: span.events })));
    const collected = JSON.stringify((await sdk.collectMetrics()).scopeMetrics.flatMap((scope) => scope.metrics.map((m) => m.dataPoints.map((p) => p.attributes))));
    expect(secrets.length).toBeGreaterThan(4);
    for (const secret of secrets) {
      expect(spans, 'a span carries a credential').not.toContain(secret);
      expect(collected, 'a metric carries a credential').not.toContain(secret);
    }
  });
});
