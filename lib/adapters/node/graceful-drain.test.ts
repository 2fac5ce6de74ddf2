import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createApp } from '../../app/create-app.js';
import { defineModule } from '../../modules/module.js';
import { defineController } from '../../routing/controller.js';
import { get } from '../../routing/route.js';
import { serve, type NodeServer } from './serve.js';
import { withTimeout } from './test-support.js';

let server: NodeServer | undefined;
afterEach(async () => {
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

interface LoadOutcome {
  answered: number;
  answeredAfterClose: number;
  refused: number;
  failures: string[];
}

/** One keep-alive client firing requests back to back until the server refuses its connection. */
async function fire(url: string, agent: Agent, closing: () => boolean, outcome: LoadOutcome): Promise<void> {
  for (;;) {
    const result = await new Promise<'ok' | 'refused' | string>((resolve) => {
      const req = request(`${url}/hello/drain`, { agent }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(res.statusCode === 200 && body.includes('drain') ? 'ok' : `status ${res.statusCode}`));
        res.on('error', (error) => resolve(`response error ${error.message}`));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code === 'ECONNREFUSED' ? 'refused' : `${error.code ?? ''} ${error.message}`));
      req.end();
    });
    if (result === 'ok') {
      outcome.answered++;
      if (closing()) outcome.answeredAfterClose++;
    } else if (result === 'refused') {
      outcome.refused++;
      return;
    } else {
      outcome.failures.push(result);
      return;
    }
  }
}

describe('serve: graceful close under keep-alive load', () => {
  it('answers every request written on an open connection through the signal; the rest are refused at connect time', async () => {
    const controller = defineController({ name: 'Drain', routes: () => ({ hello: get('/hello/:name', (ctx) => ({ hello: ctx.params.name })) }) });
    const app = await createApp(defineModule({ name: 'Drain', controllers: [controller] }));
    const s = await serve(app, { port: 0 });
    server = s;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    const outcome: LoadOutcome = { answered: 0, answeredAfterClose: 0, refused: 0, failures: [] };
    let closing = false;
    const clients = Array.from({ length: 16 }, () => fire(s.url, agent, () => closing, outcome));
    await new Promise((resolve) => setTimeout(resolve, 150));
    closing = true;
    await withTimeout(s.close(), 5_000, 'close() to finish draining');
    await withTimeout(Promise.all(clients), 5_000, 'the clients to stop');
    agent.destroy();
    expect(outcome.failures, 'requests that met a reset or no answer').toEqual([]);
    expect(outcome.answered).toBeGreaterThan(100);
    expect(outcome.answeredAfterClose, 'requests arriving on open connections during the drain were answered').toBeGreaterThan(0);
    expect(outcome.refused).toBe(16);
  });

  it('closes an idle keep-alive connection after the idle grace, not at once and not at the keep-alive timeout', async () => {
    const controller = defineController({ name: 'Drain', routes: () => ({ hello: get('/hello/:name', (ctx) => ({ hello: ctx.params.name })) }) });
    const app = await createApp(defineModule({ name: 'Drain', controllers: [controller] }));
    const s = await serve(app, { port: 0, keepAliveTimeout: 30_000 });
    server = s;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await new Promise<void>((resolve, reject) => request(`${s.url}/hello/idle`, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end());
    const started = Date.now();
    await withTimeout(s.close({ idleGraceMs: 300 }), 3_000, 'close() with an idle connection');
    const took = Date.now() - started;
    agent.destroy();
    expect(took).toBeGreaterThanOrEqual(250);
    expect(took).toBeLessThan(2_000);
  });
});
