import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/json-logger.js';
import { createApp } from '../../app/create-app.js';
import type { Middleware } from '../../context/middleware.js';
import { defineModule } from '../../modules/module.js';
import { withHeaders } from '../../http/with-headers.js';
import { defineController } from '../../routing/controller.js';
import { get, post } from '../../routing/route.js';
import { serve, type NodeServer } from './serve.js';
import { withTimeout } from './test-support.js';

let server: NodeServer | undefined;
let release: (() => void) | undefined;
afterEach(async () => {
  release?.();
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

const tag: Middleware = async (_ctx, next) => withHeaders(await next(), { 'x-seen-by': 'middleware' });

async function start(): Promise<NodeServer> {
  const gate = new Promise<void>((resolve) => (release = resolve));
  const encoder = new TextEncoder();
  const controller = defineController({
    name: 'Socket',
    routes: () => ({
      raw: post('/raw', { bodyLimit: 1_000 }, async (ctx) => ({ bytes: (await ctx.request.arrayBuffer()).byteLength })),
      events: get('/events', () => {
        const body = new ReadableStream<Uint8Array>({
          async pull(controller) {
            await gate;
            controller.enqueue(encoder.encode('data: first\n\n'));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      }),
    }),
  });
  const app = await createApp(defineModule({ name: 'Socket', controllers: [controller] }), { middleware: [tag], logger: silentLogger });
  server = await serve(app, { port: 0 });
  return server;
}

describe('the request lifecycle over a real socket', () => {
  it('runs app middleware around the router\u2019s 404, as app.fetch does', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/nowhere`);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-seen-by')).toBe('middleware');
  });

  it('answers 413 when a handler reads a 5 000-byte body with arrayBuffer() on a 1 000-byte route', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/raw`, { method: 'POST', body: 'x'.repeat(5_000) });
    expect(res.status).toBe(413);
    expect(res.headers.get('x-seen-by')).toBe('middleware');
  });

  it('sends the status line and headers of a stream before its first chunk', async () => {
    const s = await start();
    const res = await withTimeout(fetch(`${s.url}/events`), 2_000, 'the headers of a stream whose first event is not ready');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    release?.();
    expect(await res.text()).toBe('data: first\n\n');
  });
});
