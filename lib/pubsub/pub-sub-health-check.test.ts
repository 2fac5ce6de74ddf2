import { describe, expect, it } from 'vitest';
import { silentLogger } from '../logging/json-logger.js';
import { defineModule } from '../modules/module.js';
import { inProcessPubSub, type PubSub } from './pub-sub.js';
import { createApp } from '../app/create-app.js';
import { pubSubHealthCheck } from './pub-sub-health-check.js';

/** The in-process engine with a listening connection whose state the test sets (the real engines' states are tested in test/pubsub). */
function engineWithConnection(): { pubsub: PubSub; set(up: boolean): void } {
  let up = true;
  return { pubsub: { ...inProcessPubSub(), listening: () => up }, set: (value) => (up = value) };
}

async function readiness(pubsub: PubSub, critical?: boolean): Promise<{ status: number; body: unknown }> {
  const app = await createApp(defineModule({ name: 'M' }), { logger: silentLogger, pubsub, health: { checks: [pubSubHealthCheck(pubsub, critical === undefined ? {} : { critical })] } });
  const res = await app.request('/health/ready');
  return { status: res.status, body: await res.json() };
}

describe('pubSubHealthCheck', () => {
  it('is up for an engine with no listening connection (the in-process one)', async () => {
    expect((await readiness(inProcessPubSub())).status).toBe(200);
  });

  it('is up while the engine listens', async () => {
    const engine = engineWithConnection();
    expect((await readiness(engine.pubsub)).status).toBe(200);
  });

  it('is down, named pubsub, while the engine has lost its listening connection: readiness degraded, still 200 (a shared bus is lost by every instance at once)', async () => {
    const engine = engineWithConnection();
    engine.set(false);
    const { status, body } = await readiness(engine.pubsub);
    expect(status, 'the instance stays in the balancer').toBe(200);
    expect(body, 'the failed check is named').toMatchObject({ status: 'degraded', checks: { pubsub: { status: 'down' } } });
  });

  it('makes readiness fail (503) when the app asks for it with critical: true', async () => {
    const engine = engineWithConnection();
    engine.set(false);
    const { status, body } = await readiness(engine.pubsub, true);
    expect(status).toBe(503);
    expect(body).toMatchObject({ status: 'error', checks: { pubsub: { status: 'down' } } });
  });
});
