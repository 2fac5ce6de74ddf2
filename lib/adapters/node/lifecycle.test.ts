import { afterEach, describe, expect, it } from 'vitest';
import { serve, type NodeServer, type ServeOptions } from './serve.js';
import { createProbes, createTestApp, rawSocket, withTimeout, type Probes } from './test-support.js';

let server: NodeServer | undefined;
let probes: Probes;

async function start(options: ServeOptions = {}): Promise<NodeServer> {
  probes = createProbes();
  server = await serve(await createTestApp(probes), { port: 0, ...options });
  return server;
}

afterEach(async () => {
  probes?.gate.resolve();
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

describe('serve: graceful close', () => {
  it('lets a request in flight complete, then refuses new connections', async () => {
    const s = await start();
    // A keep-alive connection that has finished its request must not hold close() open.
    expect((await fetch(`${s.url}/hello/warm`)).status).toBe(200);
    const inFlight = fetch(`${s.url}/slow`);
    await withTimeout(probes.started.promise, 2000, 'the handler to start');

    const closed = s.close();
    await new Promise((r) => setTimeout(r, 50));
    probes.gate.resolve();

    const res = await withTimeout(inFlight, 2000, 'the in-flight response');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await withTimeout(closed, 2000, 'close() to resolve');

    await expect(fetch(`${s.url}/hello/late`)).rejects.toThrow();
    expect(s.server.listening).toBe(false);
  });

  it('lets a stream that started before close() finish, then closes without waiting for keep-alive', async () => {
    const s = await start({ keepAliveTimeout: 10_000 });
    const res = await fetch(`${s.url}/stream`);
    await withTimeout(probes.started.promise, 2000, 'the stream to start');
    const started = Date.now();
    const closed = s.close();
    probes.gate.resolve();
    expect(await res.text()).toBe('first;second;');
    await withTimeout(closed, 3000, 'close() to resolve');
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('destroys what is still open after forceAfterMs', async () => {
    const s = await start();
    const reading = fetch(`${s.url}/endless`).then(async (res) => {
      await res.text();
    });
    await withTimeout(probes.started.promise, 2000, 'the stream to start');
    const started = Date.now();
    await withTimeout(s.close({ forceAfterMs: 100 }), 2000, 'close() to give up waiting');
    expect(Date.now() - started).toBeLessThan(1500);
    await expect(reading).rejects.toThrow();
  });

  it('tells a stream that never ends to end after streamGraceMs: the producer is cancelled and the client sees a complete response', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/endless`);
    const reading = res.text();
    await withTimeout(probes.started.promise, 2000, 'the stream to start');
    const started = Date.now();
    await withTimeout(s.close({ streamGraceMs: 100 }), 2000, 'close() to end the stream');
    expect(Date.now() - started).toBeLessThan(1500);
    await withTimeout(probes.cancelled.promise, 2000, 'the producer to be cancelled');
    expect(await withTimeout(reading, 2000, 'the body to end')).toMatch(/^(tick;)+$/);
  });

  it('is idempotent', async () => {
    const s = await start();
    await Promise.all([s.close(), s.close()]);
    await s.close();
  });
});

describe('serve: slow clients', () => {
  const timeouts: ServeOptions = { headersTimeout: 300, requestTimeout: 500, connectionsCheckingInterval: 100 };

  it('closes a connection whose headers stall (headersTimeout)', async () => {
    const s = await start(timeouts);
    expect(s.server.headersTimeout).toBe(300);
    const { socket, received } = await rawSocket(s.port);
    socket.write('GET /hello/x HTTP/1.1\r\nHost: localhost\r\nX-Partial: ');
    const started = Date.now();
    const text = await withTimeout(received, 3000, 'the server to close the stalled connection');
    expect(Date.now() - started).toBeLessThan(2000);
    expect(text).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body stalls (requestTimeout)', async () => {
    const s = await start(timeouts);
    expect(s.server.requestTimeout).toBe(500);
    const { socket, received } = await rawSocket(s.port);
    socket.write('POST /items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 50\r\n\r\n{"na');
    const started = Date.now();
    await withTimeout(received, 3000, 'the server to close the stalled connection');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('closes a connection that stays silent for idleTimeout, even mid-response', async () => {
    const s = await start({ idleTimeout: 300 });
    const res = await fetch(`${s.url}/endless`);
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // 'tick;' and then nothing more, ever
    await expect(withTimeout(reader.read(), 3000, 'the idle connection to end')).rejects.toThrow(/terminated|other side closed|socket/i);
    await withTimeout(probes.cancelled.promise, 2000, 'the producer to be cancelled');
  });

  it('sets the keep-alive timeout from the options', async () => {
    const s = await start({ keepAliveTimeout: 1234 });
    expect(s.server.keepAliveTimeout).toBe(1234);
  });
});
