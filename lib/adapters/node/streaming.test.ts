import { get as httpGet, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/json-logger.js';
import { serve, type NodeServer } from './serve.js';
import { createProbes, createTestApp, withTimeout, type Probes } from './test-support.js';

let server: NodeServer | undefined;
let probes: Probes;
let logged: unknown[];

async function start(): Promise<NodeServer> {
  probes = createProbes();
  logged = [];
  server = await serve(await createTestApp(probes), { port: 0, logger: { ...silentLogger, error: (fields) => void logged.push(fields.err) } });
  return server;
}

afterEach(async () => {
  probes?.gate.resolve();
  probes?.aborted.resolve('test over');
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

describe('serve: streamed responses', () => {
  it('delivers the first chunk before the stream has finished', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/stream`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    // The gate is still closed: this chunk can only have come before the handler finished.
    const first = await withTimeout(reader.read(), 2000, 'the first chunk');
    expect(decoder.decode(first.value)).toBe('first;');
    probes.gate.resolve();
    let rest = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      rest += decoder.decode(value, { stream: true });
    }
    expect(rest).toBe('second;');
  });

  it('uses chunked framing for a body that is not whole yet', async () => {
    const s = await start();
    const headers = await new Promise<Record<string, unknown>>((resolve, reject) => {
      httpGet(`${s.url}/stream`, (res) => {
        resolve(res.headers);
        res.resume();
        probes.gate.resolve();
      }).on('error', reject);
    });
    expect(headers['transfer-encoding']).toBe('chunked');
    expect(headers['content-length']).toBeUndefined();
  });

  it('cuts the connection when the stream fails half-way, logs, and keeps serving', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/broken`);
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
    expect(logged.map((e) => (e as Error).message)).toEqual(['producer failed']);
    const after = await fetch(`${s.url}/hello/ok`);
    expect(after.status).toBe(200);
  });

  it('cancels the producer when the client goes away mid-stream', async () => {
    const s = await start();
    const cancelled = new Promise<void>((resolve) => {
      const req = httpGet(`${s.url}/endless`, (res) => {
        res.once('data', () => req.destroy());
      });
      req.on('error', () => undefined);
      req.on('close', () => resolve());
    });
    await withTimeout(cancelled, 2000, 'the client to disconnect');
    await withTimeout(probes.cancelled.promise, 2000, 'the producer to be cancelled');
    // The server is still healthy and logged nothing: a client leaving is not a server error.
    expect((await fetch(`${s.url}/hello/ok`)).status).toBe(200);
    expect(logged).toEqual([]);
  });
});

describe('serve: streams against the raw socket', () => {
  it('answers 500 problem+json when the body stream fails before its first chunk', async () => {
    logged = [];
    server = await serve(
      { handle: (_incoming, reply) => reply(new Response(new ReadableStream({ pull: (c) => c.error(new Error('early failure')) }))) },
      { port: 0, logger: { ...silentLogger, error: (fields) => void logged.push(fields.err) } },
    );
    const res = await fetch(`${server.url}/`);
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(logged.map((e) => (e as Error).message)).toEqual(['early failure']);
  });

  it('pulls from the producer only as fast as the client reads (backpressure)', async () => {
    const chunk = new Uint8Array(64 * 1024);
    let pulled = 0;
    const total = 200 * 1024 * 1024;
    server = await serve(
      {
        handle: (_incoming, reply) =>
          reply(
            new Response(
              new ReadableStream<Uint8Array>({
                pull(c) {
                  if (pulled >= total) return c.close();
                  pulled += chunk.byteLength;
                  c.enqueue(chunk);
                },
              }),
            ),
          ),
      },
      { port: 0 },
    );
    const url = server.url;
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      httpGet(url, resolve).on('error', reject);
    });
    res.pause();
    await new Promise((r) => setTimeout(r, 300));
    // Socket buffers on loopback hold a few MiB; without backpressure all 200 MiB would be pulled.
    expect(pulled).toBeLessThan(32 * 1024 * 1024);
    res.destroy();
  });

  it('streams a request body into a response body (toRequest, duplex)', async () => {
    server = await serve({ handle: (incoming, reply) => reply(new Response(incoming.toRequest().body)) }, { port: 0 });
    const payload = 'p'.repeat(1024 * 1024);
    const res = await fetch(`${server.url}/pipe`, { method: 'PUT', body: payload });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(payload);
  });
});

describe('serve: client disconnects', () => {
  it("aborts the handler's ctx.signal when the client goes away before the response", async () => {
    const s = await start();
    const client = new AbortController();
    const pending = fetch(`${s.url}/wait-for-abort`, { signal: client.signal }).catch((error: unknown) => error);
    await withTimeout(probes.started.promise, 2000, 'the handler to start');
    client.abort();
    const reason = await withTimeout(probes.aborted.promise, 2000, 'ctx.signal to abort');
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('AbortError');
    expect(await pending).toBeInstanceOf(Error);
  });

  it('does not abort the signal of a request that completed', async () => {
    probes = createProbes();
    let signal: AbortSignal | undefined;
    server = await serve(
      {
        handle: (incoming, reply) => {
          signal = incoming.signal;
          reply({ status: 200, headers: {}, body: 'ok' });
        },
      },
      { port: 0 },
    );
    const agent = await fetch(`${server.url}/`);
    expect(await agent.text()).toBe('ok');
    await new Promise((r) => setTimeout(r, 50));
    expect(signal?.aborted).toBe(false);
  });
});
