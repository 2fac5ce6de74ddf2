// Sign-in throttling tells the app's instrumentation what it does: a counter when a failure
// reaches a threshold, a counter and the request span's refusal when it answers 429, by dimension,
// never with an identifier or an address.
import { SpanKind } from '@opentelemetry/api';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, post, silentLogger } from '../../lib/index.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore } from '../../lib/auth/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { startTestSdk } from '../../lib/otel/test-sdk.test-helper.js';

const sdk = startTestSdk();
afterEach(() => sdk.reset());
afterAll(() => sdk.stop());

const Claims = z.object({ sub: z.string() });
const auth = defineAuthModule(Claims);

class Accounts extends InMemoryCredentialStore<{ sub: string }> {
  constructor() {
    super([{ identifier: 'alice@acme.test', subject: 'u_alice', passwordHash: 'hashed:right', claims: { sub: 'u_alice' } }]);
  }
}

async function signInApp() {
  const passwordHasher = { hash: async (password: string) => `hashed:${password}`, verify: async (password: string, phc: string) => phc === `hashed:${password}` };
  const controller = defineController({
    name: 'SignIn',
    inject: [auth.AUTH_SERVICE],
    routes: (service) => ({
      signIn: post('/sign-in', { body: z.object({ identifier: z.string(), password: z.string() }) }, async (ctx) => {
        // app.request has no peer address: the test sends one in a header a real app would never trust.
        await service.signIn(ctx.body.identifier, ctx.body.password, { clientAddress: ctx.header('x-test-client-address') ?? undefined });
        return 'ok';
      }),
    }),
  });
  return createApp(
    defineModule({
      name: 'Root',
      imports: [auth.AuthModule.forRoot({ secret: 'sign-in-telemetry-test-secret-0123456789', clock: createManualClock(Date.parse('2026-11-26T00:00:00Z')), issuing: { credentialStore: Accounts, refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher } })],
      controllers: [controller],
    }),
    { logger: silentLogger, instrumentation: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }) },
  );
}

async function counter(name: string): Promise<Record<string, number>> {
  const metric = (await sdk.collectMetrics()).scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  const out: Record<string, number> = {};
  for (const point of (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[]) out[String(point.attributes.dimension ?? '')] = point.value as number;
  return out;
}

describe('sign-in throttling telemetry', () => {
  it('counts the threshold reached and the 429, by dimension, and marks the refused request span', async () => {
    const app = await signInApp();
    const signIn = () =>
      app.request('/sign-in', { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-client-address': '203.0.113.7' }, body: JSON.stringify({ identifier: 'alice@acme.test', password: 'wrong' }) });
    for (let i = 0; i < 5; i++) expect((await signIn()).status).toBe(401);
    expect((await signIn()).status).toBe(429);
    expect(await counter('tessera.auth.sign_in.throttling_started'), 'the 5th failure reached the per-minute tier').toEqual({ 'account-address': 1 });
    expect(await counter('tessera.auth.sign_in.throttled'), 'one 429').toEqual({ 'account-address': 1 });
    const server = sdk.spans().filter((span) => span.kind === SpanKind.SERVER);
    expect(server.at(-1)?.attributes['tessera.auth.refusal']).toBe('sign_in_throttled');
    const everything = JSON.stringify(sdk.spans().map((span) => span.attributes));
    expect(everything).not.toContain('alice');
    expect(everything).not.toContain('203.0.113.7');
  });
});
