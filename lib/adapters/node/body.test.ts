import { Agent } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { serve, type NodeServer, type ServeOptions } from './serve.js';
import { createProbes, createTestApp, rawRequest, rawSocket, withTimeout, type Probes } from './test-support.js';

const LIMIT = 100;
const VALID = JSON.stringify({ name: 'pen', qty: 1 });
const JSON_HEADERS = { 'content-type': 'application/json' };

let server: NodeServer | undefined;
let agent: Agent | undefined;
let probes: Probes;

async function start(options: ServeOptions = {}): Promise<NodeServer> {
  probes = createProbes();
  server = await serve(await createTestApp(probes, { bodyLimit: LIMIT }), { port: 0, ...options });
  return server;
}

/** One socket at most, kept alive: a second request reports whether it reused the first one's connection. */
function singleSocketAgent(): Agent {
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
  return agent;
}

afterEach(async () => {
  agent?.destroy();
  agent = undefined;
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

describe('serve: request bodies over the limit', () => {
  it('answers 413 from Content-Length, drains the small rest and reuses the connection', async () => {
    const s = await start();
    const keepAlive = singleSocketAgent();
    const big = JSON.stringify({ name: 'x'.repeat(500), qty: 1 });
    const refused = await rawRequest(`${s.url}/items`, { method: 'POST', headers: JSON_HEADERS, chunks: [big], agent: keepAlive });
    expect(refused.status).toBe(413);
    expect(refused.headers['content-type']).toBe('application/problem+json');
    expect(refused.headers.connection).not.toBe('close');

    const next = await rawRequest(`${s.url}/items`, { method: 'POST', headers: JSON_HEADERS, chunks: [VALID], agent: keepAlive });
    expect(next.status).toBe(201);
    expect(next.reusedSocket).toBe(true);
  });

  it('answers 413 for a chunked body as soon as it passes the limit, and keeps serving', async () => {
    const s = await start();
    const keepAlive = singleSocketAgent();
    // Well past Node's 16 KiB stream buffer, so the paused socket must really be drained.
    const chunks = Array.from({ length: 20 }, () => 'y'.repeat(4096));
    const refused = await rawRequest(`${s.url}/items`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, 'transfer-encoding': 'chunked' },
      chunks,
      agent: keepAlive,
    });
    expect(refused.status).toBe(413);
    expect(JSON.parse(refused.body)).toMatchObject({ type: 'about:blank', status: 413 });

    const next = await rawRequest(`${s.url}/items`, { method: 'POST', headers: JSON_HEADERS, chunks: [VALID], agent: keepAlive });
    expect(next.status).toBe(201);
    expect(next.reusedSocket).toBe(true);
  });

  it('answers 413 before a chunked upload has finished, then serves the next request on the same socket', async () => {
    const s = await start();
    const { socket, received } = await rawSocket(s.port);
    let text = '';
    socket.on('data', (chunk: string) => (text += chunk));
    const until = async (pattern: RegExp) => {
      for (let i = 0; i < 200 && !pattern.test(text); i++) await new Promise((r) => setTimeout(r, 10));
      return text;
    };
    socket.write('POST /items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n');
    socket.write(`50\r\n${'w'.repeat(0x50)}\r\n50\r\n${'w'.repeat(0x50)}\r\n`);
    // The upload is not over (no last chunk) and the answer is already here.
    expect(await until(/\r\n\r\n\{[^}]*\}/)).toMatch(/^HTTP\/1\.1 413 /);
    const more = `1000\r\n${'v'.repeat(0x1000)}\r\n`.repeat(16);
    socket.write(`${more}0\r\n\r\n`);
    socket.write(`POST /items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${VALID.length}\r\nConnection: close\r\n\r\n${VALID}`);
    const all = await withTimeout(received, 3000, 'the second response');
    expect(all).toMatch(/HTTP\/1\.1 201 [\s\S]*"name":"pen"/);
  });

  it('closes the connection instead of draining a declared body bigger than drainLimit', async () => {
    const s = await start({ drainLimit: 1024 });
    const { socket, received } = await rawSocket(s.port);
    socket.write(`POST /items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n`);
    socket.write('z'.repeat(2000));
    const text = await withTimeout(received, 3000, 'the server to close the connection');
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text.toLowerCase()).toContain('connection: close');

    const after = await fetch(`${s.url}/items`, { method: 'POST', headers: JSON_HEADERS, body: VALID });
    expect(after.status).toBe(201);
  });

  it('never sends 100 Continue for a body it refuses from Content-Length', async () => {
    const s = await start();
    let continued = false;
    const refused = await rawRequest(`${s.url}/items`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, expect: '100-continue', 'content-length': '5000' },
      chunks: ['q'.repeat(5000)],
      waitForContinue: true,
      onContinue: () => (continued = true),
    });
    expect(refused.status).toBe(413);
    expect(continued).toBe(false);
  });

  it('sends 100 Continue when the body is read', async () => {
    const s = await start();
    let continued = false;
    const ok = await rawRequest(`${s.url}/items`, {
      method: 'POST',
      headers: { ...JSON_HEADERS, expect: '100-continue', 'content-length': String(Buffer.byteLength(VALID)) },
      chunks: [VALID],
      waitForContinue: true,
      onContinue: () => (continued = true),
    });
    expect(ok.status).toBe(201);
    expect(continued).toBe(true);
  });
});

describe('serve: bodies read through a web Request built first', () => {
  it('applies the limit to the Request body stream and still reuses the connection', async () => {
    server = await serve(
      {
        handle: async (incoming) => {
          incoming.toRequest(); // e.g. a guard that looked at ctx.request
          try {
            const bytes = await incoming.readBody(LIMIT);
            return { status: 200, headers: {}, body: String(bytes.byteLength) };
          } catch {
            return { status: 413, headers: {}, body: 'too large' };
          }
        },
      },
      { port: 0 },
    );
    const keepAlive = singleSocketAgent();
    const chunks = Array.from({ length: 10 }, () => 'u'.repeat(8192));
    const refused = await rawRequest(`${server.url}/`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' }, chunks, agent: keepAlive });
    expect(refused.status).toBe(413);
    const ok = await rawRequest(`${server.url}/`, { method: 'POST', chunks: ['12345'], agent: keepAlive });
    expect(ok.status).toBe(200);
    expect(ok.body).toBe('5');
    expect(ok.reusedSocket).toBe(true);
  });
});

describe('serve: bodies nobody reads', () => {
  it('throws away a small unread body and keeps the connection', async () => {
    const s = await start();
    const keepAlive = singleSocketAgent();
    const first = await rawRequest(`${s.url}/ignore`, { method: 'POST', headers: { 'content-type': 'text/plain' }, chunks: ['a'.repeat(3000)], agent: keepAlive });
    expect(first.status).toBe(200);
    const second = await rawRequest(`${s.url}/ignore`, {
      method: 'POST',
      headers: { 'transfer-encoding': 'chunked' },
      chunks: ['b'.repeat(500), 'c'.repeat(500)],
      agent: keepAlive,
    });
    expect(second.status).toBe(200);
    expect(second.reusedSocket).toBe(true);
    const third = await rawRequest(`${s.url}/hello/z`, { agent: keepAlive });
    expect(third.status).toBe(200);
    expect(third.reusedSocket).toBe(true);
  });

  it('stops draining an endless chunked body and keeps serving others', async () => {
    const s = await start({ drainLimit: 1024 });
    const { socket, received } = await rawSocket(s.port);
    socket.write('POST /ignore HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n');
    const chunk = `400\r\n${'d'.repeat(0x400)}\r\n`;
    const writer = setInterval(() => socket.writable && socket.write(chunk), 5);
    try {
      const text = await withTimeout(received, 3000, 'the server to close the connection');
      expect(text).toMatch(/^HTTP\/1\.1 200 /);
    } finally {
      clearInterval(writer);
    }
    const after = await fetch(`${s.url}/hello/after`);
    expect(after.status).toBe(200);
  });

  it('settles the body read with a 400 when the client disconnects in the middle of its body', async () => {
    const errors: unknown[] = [];
    probes = createProbes();
    const app = await createTestApp(probes, {
      bodyLimit: LIMIT,
      onError: (error) => {
        errors.push(error);
        return undefined;
      },
    });
    server = await serve(app, { port: 0 });
    const { socket, received } = await rawSocket(server.port);
    socket.write('POST /items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 90\r\n\r\n{"name":');
    await new Promise((r) => setTimeout(r, 30));
    socket.destroy();
    await received;
    // Promptly: not after a timeout or a grace period.
    await vi.waitFor(() => expect(errors.length, 'the body read did not settle within 500 ms of the client leaving').toBe(1), { timeout: 500 });
    const [error] = errors as [{ status?: number; message?: string }];
    expect(error.status, 'a client that leaves mid-body is a 400, not a 500').toBe(400);
    expect(error.message).toBe('The request body ended before it was complete.');
  });

  it('survives a client that disconnects in the middle of its body', async () => {
    const s = await start();
    const { socket, received } = await rawSocket(s.port);
    socket.write('POST /items HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 90\r\n\r\n{"name":');
    await new Promise((r) => setTimeout(r, 30));
    socket.destroy();
    await received;
    const after = await fetch(`${s.url}/items`, { method: 'POST', headers: JSON_HEADERS, body: VALID });
    expect(after.status).toBe(201);
  });
});
