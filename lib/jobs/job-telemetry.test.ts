// A job run on the app's telemetry: one span per run and the duration histogram, by job and
// outcome, through the same providers `openTelemetry()` follows requests with.
import { afterAll, describe, expect, it } from 'vitest';
import { createApp, defineModule } from '../index.js';
import { openTelemetry } from '../otel/index.js';
import { startTestSdk } from '../otel/test-sdk.test-helper.js';
import { createTestLogger } from '../../test/support/test-logger.js';
import { defineJob, JOBS, JobsModule, memoryJobEngine } from './index.js';

async function until(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('job runs on the telemetry', () => {
  const sdk = startTestSdk();
  afterAll(() => sdk.stop());

  it('makes one span per run and records its duration by job and outcome', async () => {
    let runs = 0;
    const ok = defineJob({ name: 'telemetry-ok', handler: () => void (runs += 1) });
    const bad = defineJob({ name: 'telemetry-bad', retries: 0, handler: () => { runs += 1; throw new Error('nope'); } });
    const { logger } = createTestLogger();
    const app = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ engine: memoryJobEngine() })], providers: [ok, bad] }), {
      logger,
      instrumentation: openTelemetry({ tracerProvider: sdk.tracerProvider, meterProvider: sdk.meterProvider }),
    });
    await app.get(JOBS).enqueue(ok, undefined);
    await app.get(JOBS).enqueue(bad, undefined);
    await until(() => runs === 2 && sdk.spans().length >= 2, 'both runs and their spans');
    await app.close();
    const spans = sdk.spans().map((span) => ({ name: span.name, job: span.attributes['tessera.job.name'], status: span.status.code }));
    expect(spans, 'one span per run, the failed one marked as an error').toEqual(
      expect.arrayContaining([
        { name: 'job telemetry-ok', job: 'telemetry-ok', status: 0 },
        { name: 'job telemetry-bad', job: 'telemetry-bad', status: 2 },
      ]),
    );
    const metrics = (await sdk.collectMetrics()).scopeMetrics.flatMap((scope) => scope.metrics);
    const duration = metrics.find((metric) => metric.descriptor.name === 'tessera.job.duration');
    const points = (duration?.dataPoints ?? []).map((point) => ({ job: point.attributes['tessera.job.name'], outcome: point.attributes['tessera.job.outcome'], count: (point.value as { count: number }).count }));
    expect(points, 'the duration histogram has one run per job and outcome').toEqual(
      expect.arrayContaining([
        { job: 'telemetry-ok', outcome: 'completed', count: 1 },
        { job: 'telemetry-bad', outcome: 'failed', count: 1 },
      ]),
    );
  });
});
