import { describe, expect, it } from 'vitest';
import { createToken } from '../di/token.js';
import { jsonLogger, silentLogger } from '../logging/json-logger.js';
import type { Guard } from '../context/guard.js';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import { createApp, type AppOptions } from './create-app.js';
import type { HealthCheck } from '../common/health-check.js';

class DenyAll implements Guard {
  canActivate(): boolean {
    return false;
  }
}

const things = defineController({ name: 'Things', routes: () => ({ list: get('/things', () => []) }) });
const up = (name: string): HealthCheck => ({ name, check: () => undefined });
const down = (name: string, message = 'connect ECONNREFUSED 10.0.0.5:5432 (password=hunter2)'): HealthCheck => ({ name, check: () => Promise.reject(new Error(message)) });

function app(options: AppOptions, providers: Parameters<typeof defineModule>[0]['providers'] = []) {
  return createApp(defineModule({ name: 'M', controllers: [things], providers }), { logger: silentLogger, ...options });
}

describe('health endpoints', () => {
  it('are not served unless the health option asks for them', async () => {
    const res = await (await app({})).request('/health/live');
    expect(res.status).toBe(404);
  });

  it('answer liveness with 200 and no-store', async () => {
    const res = await (await app({ health: true })).request('/health/live');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('answer readiness with 200 and each check up when every check passes', async () => {
    const res = await (await app({ health: { checks: [up('database'), up('jwks')] } })).request('/health/ready');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; checks: Record<string, { status: string; durationMs: number }> };
    expect(body.status).toBe('ok');
    expect(Object.keys(body.checks)).toEqual(['database', 'jwks']);
    expect(body.checks.database?.status).toBe('up');
  });

  it('answer readiness with 503 naming the failed check, without its error message', async () => {
    const res = await (await app({ health: { checks: [up('jwks'), down('database')] } })).request('/health/ready');
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ status: 'error', checks: { jwks: { status: 'up' }, database: { status: 'down', reason: 'failed' } } });
    expect(text, 'the public answer leaks nothing of the failure').not.toMatch(/ECONNREFUSED|10\.0\.0\.5|hunter2/);
  });

  it('answer readiness with 200 and status degraded when only checks marked critical: false are down', async () => {
    const res = await (await app({ health: { checks: [up('jwks'), { ...down('redis'), critical: false }] } })).request('/health/ready');
    expect(res.status, 'a shared engine\'s outage keeps the instance in the balancer').toBe(200);
    expect(await res.json()).toMatchObject({ status: 'degraded', checks: { jwks: { status: 'up' }, redis: { status: 'down' } } });
  });

  it('answer readiness with 503 when a critical check is down beside a non-critical one', async () => {
    const res = await (await app({ health: { checks: [down('jwks'), { ...down('redis'), critical: false }] } })).request('/health/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'error' });
  });

  it('log a failed check with its error, for operators', async () => {
    const lines: string[] = [];
    const a = await app({ logger: jsonLogger({ write: (line) => lines.push(line) }), health: { checks: [down('database', 'connection refused')] } });
    await a.request('/health/ready');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 'warn', msg: 'health check failed', check: 'database', err: { message: 'connection refused' } });
  });

  it('count a check that outlives its timeout as down, and abort its signal', async () => {
    let aborted = false;
    const hanging: HealthCheck = { name: 'slow', check: (signal) => new Promise<void>(() => signal.addEventListener('abort', () => (aborted = true))) };
    const res = await (await app({ health: { checks: [hanging], timeoutMs: 20 } })).request('/health/ready');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ checks: { slow: { status: 'down', reason: 'timed out' } } });
    expect(aborted, 'the check was told to stop').toBe(true);
  });

  it('run the checks concurrently', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const waiting = (name: string): HealthCheck => ({ name, check: async () => { started.push(name); await gate; } });
    const a = await app({ health: { checks: [waiting('a'), waiting('b')] } });
    const pending = a.request('/health/ready');
    await new Promise((resolve) => setImmediate(resolve));
    expect(started, 'both checks started before either finished').toEqual(['a', 'b']);
    release();
    expect((await pending).status).toBe(200);
  });

  it('take checks that are providers, by token', async () => {
    const DATABASE_CHECK = createToken<HealthCheck>('DATABASE_CHECK');
    const a = await app({ health: { checks: [DATABASE_CHECK] } }, [{ provide: DATABASE_CHECK, useValue: down('database') }]);
    expect((await a.request('/health/ready')).status).toBe(503);
  });

  it('answer readiness 503 from the moment the app drains, liveness still 200', async () => {
    const a = await app({ health: { checks: [up('database')] } });
    expect((await a.request('/health/ready')).status).toBe(200);
    void a.drain();
    const ready = await a.request('/health/ready');
    expect(ready.status, 'readiness during the drain').toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining', checks: {} });
    expect((await a.request('/health/live')).status, 'liveness during the drain').toBe(200);
  });

  it('answer readiness 503 once close() has begun', async () => {
    const a = await app({ health: true });
    await a.close();
    expect((await a.request('/health/ready')).status).toBe(503);
  });

  it('serve their configured paths', async () => {
    const a = await app({ health: { livePath: '/livez', readyPath: '/readyz' } });
    expect((await a.request('/livez')).status).toBe(200);
    expect((await a.request('/readyz')).status).toBe(200);
    expect((await a.request('/health/live')).status).toBe(404);
  });

  it('are public: app guards do not run for them', async () => {
    const a = await app({ health: true, guards: [DenyAll] });
    expect((await a.request('/things')).status, 'an ordinary route is refused').toBe(403);
    expect((await a.request('/health/live')).status).toBe(200);
    expect((await a.request('/health/ready')).status).toBe(200);
  });

  it('are left out of the access log', async () => {
    const lines: string[] = [];
    const a = await app({ logger: jsonLogger({ write: (line) => lines.push(line) }), accessLog: true, health: true });
    await a.request('/health/live');
    await a.request('/health/ready');
    await a.request('/things');
    expect(lines.map((line) => (JSON.parse(line) as { path: string }).path)).toEqual(['/things']);
  });
});

describe('drain', () => {
  it('waits drainDelayMs before resolving, and returns the same promise when called again', async () => {
    const a = await app({ health: { drainDelayMs: 30 } });
    const started = performance.now();
    const first = a.drain();
    expect(a.drain(), 'one drain per app').toBe(first);
    await first;
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
  });
});
