import { metrics } from '@opentelemetry/api';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestSdk } from '../otel/test-sdk.test-helper.js';
import { recordTokenRefusal } from './auth-telemetry.js';

const sdk = startTestSdk();
afterAll(async () => {
  metrics.disable();
  await sdk.stop();
});

describe('auth counters', () => {
  it('count once a meter provider is registered, even after a refusal was recorded before it', async () => {
    // Before any SDK: the API's no-op provider (a process that records before its SDK starts).
    recordTokenRefusal('expired');
    metrics.setGlobalMeterProvider(sdk.meterProvider);
    recordTokenRefusal('expired');
    recordTokenRefusal('missing');
    const collected = await sdk.collectMetrics();
    const metric = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'tessera.auth.token.refusals');
    const values = Object.fromEntries(((metric?.dataPoints ?? []) as DataPoint<number | Histogram>[]).map((point) => [String(point.attributes.reason), point.value]));
    expect(values, 'the counters made before the provider was registered were replaced, not kept as no-ops').toEqual({ expired: 1, missing: 1 });
  });
});
