import { afterAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { serve, type NodeServer } from '../../lib/node.js';
import { createTestLogger } from '../support/test-logger.js';
import { createChatApp } from './chat-app.js';

const CONNECTIONS = 1_000;
let server: NodeServer | undefined;
const clients: WebSocket[] = [];

afterAll(async () => {
  for (const client of clients) client.terminate();
  await server?.close({ forceAfterMs: 1_000 });
});

describe('1,000 WebSockets held on Node', () => {
  it('holds 1,000 open connections, reaches all with one publish, and reports the memory they take', async () => {
    const app = await createChatApp({ closes: [], opened: [] }, { logger: createTestLogger().logger });
    server = await serve(app, { port: 0 });
    const url = `${server.url.replace('http://', 'ws://')}/rooms/all?greet=no`;
    global.gc?.();
    const before = process.memoryUsage().rss;
    let received = 0;
    const opened: Promise<void>[] = [];
    for (let i = 0; i < CONNECTIONS; i++) {
      const client = new WebSocket(url, { headers: { 'x-user': `u${i}` } });
      clients.push(client);
      client.on('message', () => received++);
      opened.push(new Promise((resolve, reject) => (client.once('open', () => resolve()), client.once('error', reject))));
    }
    await Promise.all(opened);
    // Each open() subscribes asynchronously: wait until the app counts them all.
    const deadline = Date.now() + 10_000;
    while (app.webSockets.size < CONNECTIONS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(app.webSockets.size, 'every connection is open on the server').toBe(CONNECTIONS);
    await new Promise((r) => setTimeout(r, 50));
    await app.webSockets.publish('room:all', { room: 'all', from: 'test', text: 'to everyone' });
    while (received < CONNECTIONS && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(received, 'one publish reached every connection').toBe(CONNECTIONS);
    const grown = process.memoryUsage().rss - before;
    // Client and server share this process: the figure bounds both ends of 1,000 sockets.
    // Written past the test's console (which a passing test's output does not reach): the figure is the point.
    process.stderr.write(`\n[websocket] 1,000 WebSockets (both ends in one process): RSS +${(grown / 1024 / 1024).toFixed(1)} MiB, ${(grown / CONNECTIONS / 1024).toFixed(1)} KiB per connection\n`);
    expect(grown, 'both ends of 1,000 sockets stay under 150 MiB').toBeLessThan(150 * 1024 * 1024);
  }, 30_000);
});
