// Two blog instances sharing a PubSub engine, as two processes behind a balancer would: a post
// created through one reaches the event stream and the live WebSocket of the other. On Redis
// (TEST_REDIS_URL) and on PostgreSQL LISTEN/NOTIFY (TEST_DATABASE_URL), with the engines the
// blog's main.ts picks from REDIS_URL and DATABASE_URL; skipped, with the reason, without them.
import { afterEach, describe, expect, it } from 'vitest';
import { createBlogApp } from '../../examples/blog/blog-app.js';
import { pubsubFromEnv } from '../../examples/shared/pubsub-from-env.js';
import { silentLogger, type App } from '../../lib/index.js';
import { serve, type NodeServer } from '../../lib/node.js';
import { openSocket } from '../websocket/socket-client.js';
import { TEST_DATABASE_URL } from '../postgres/support/test-database.js';

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

const engines: [name: string, env: Record<string, string> | undefined][] = [
  ['Redis (REDIS_URL)', TEST_REDIS_URL === undefined ? undefined : { REDIS_URL: TEST_REDIS_URL }],
  ['PostgreSQL LISTEN/NOTIFY (DATABASE_URL)', TEST_DATABASE_URL === undefined ? undefined : { DATABASE_URL: TEST_DATABASE_URL }],
];

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

async function instance(env: Record<string, string>): Promise<{ app: App; server: NodeServer }> {
  const bus = await pubsubFromEnv(env, silentLogger);
  const app = await createBlogApp({}, { logger: silentLogger, pubsub: bus?.pubsub });
  const server = await serve(app, { port: 0 });
  cleanup.push(async () => {
    await server.close({ forceAfterMs: 500 });
    await app.close();
    await bus?.close();
  });
  return { app, server };
}

for (const [name, env] of engines) {
  describe.skipIf(env === undefined)(`two blog instances on ${name}`, () => {
    it('a post created on one reaches the event stream and the live socket of the other', async () => {
      const [a, b] = [await instance(env as Record<string, string>), await instance(env as Record<string, string>)];
      const events = await b.app.request('/posts/events');
      const reader = (events.body as ReadableStream<Uint8Array>).getReader();
      const live = await openSocket(`${b.server.url.replace('http://', 'ws://')}/posts/live`);
      // Both subscriptions are made as the stream and the socket open; give the engine a moment to confirm them.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const created = await a.app.request('/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Across instances"}' });
      const post = (await created.json()) as { id: string };
      const { value } = await reader.read();
      expect(new TextDecoder().decode(value), 'the other instance streamed it').toContain(`data: ${JSON.stringify(post)}`);
      expect(JSON.parse(String(await live.next())), 'the other instance pushed it on the socket').toEqual(post);
      await reader.cancel();
      live.ws.close();
    });
  });
}
