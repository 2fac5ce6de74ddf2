import { Agent, type IncomingMessage } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { IncomingRequest } from '../../index.js';
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

/** The body as one callback read, as a promise for tests that want to await it. */
function readBytes(incoming: IncomingRequest, limit = LIMIT): Promise<Uint8Array> {
  return new Promise((resolve, reject) => incoming.readBody(limit, resolve, reject));
}

describe('serve: bodies read through a web Request built first', () => {
  it('applies the limit to the Request body stream and still reuses the connection', async () => {
    server = await serve(
      {
        handle: (incoming, reply) => {
          incoming.toRequest(); // e.g. a guard that looked at ctx.request
          incoming.readBody(
            LIMIT,
            (bytes) => reply({ status: 200, headers: {}, body: String(bytes.byteLength) }),
            () => reply({ status: 413, headers: {}, body: 'too large' }),
          );
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

describe('serve: readBody, the callback read the core uses for bodies', () => {
  /** A server whose one handler reads the body, then replies with what `after` makes of it. */
  async function startWith(after: (incoming: IncomingRequest, first: string) => Promise<string> | string): Promise<NodeServer> {
    server = await serve(
      {
        handle: (incoming, reply) =>
          incoming.readBody(
            LIMIT,
            (bytes) => void Promise.resolve(after(incoming, new TextDecoder().decode(bytes))).then((body) => reply({ status: 200, headers: {}, body })),
            (error) => reply({ status: (error as { status?: number }).status ?? 500, headers: {}, body: 'refused' }),
          ),
      },
      { port: 0 },
    );
    return server;
  }

  it('calls back with the body inside the event that ends it, not a promise reaction later', async () => {
    let ranByEndOfEvent: boolean | undefined;
    let ran = false;
    server = await serve(
      {
        handle: (incoming, reply) => {
          incoming.readBody(
            LIMIT,
            (bytes) => {
              ran = true;
              reply({ status: 200, headers: {}, body: String(bytes.byteLength) });
            },
            () => reply({ status: 500, headers: {}, body: '' }),
          );
          // Registered after the reader's own listener, so it runs later in the same 'end' event.
          (incoming as unknown as { raw: IncomingMessage }).raw.once('end', () => (ranByEndOfEvent = ran));
        },
      },
      { port: 0 },
    );
    const ok = await rawRequest(`${server.url}/`, { method: 'POST', chunks: ['12345'] });
    expect(ok.body).toBe('5');
    expect(ranByEndOfEvent, 'the callback had run before the end event was over').toBe(true);
  });

  it('gives a later readBody the same bytes', async () => {
    const s = await startWith(async (incoming, first) => `${first}|${new TextDecoder().decode(await readBytes(incoming))}`);
    const ok = await rawRequest(`${s.url}/`, { method: 'POST', chunks: ['abc', 'def'] });
    expect(ok.body).toBe('abcdef|abcdef');
  });

  it('refuses a later readBody with a smaller limit than the bytes already read (413)', async () => {
    const s = await startWith(async (incoming) => readBytes(incoming, 3).then(() => 'not refused', (error: { status?: number }) => String(error.status)));
    const ok = await rawRequest(`${s.url}/`, { method: 'POST', chunks: ['abcdef'] });
    expect(ok.body).toBe('413');
  });

  it('gives a Request built afterwards the same bytes as its body', async () => {
    const s = await startWith(async (incoming, first) => `${first}|${await incoming.toRequest().text()}`);
    const ok = await rawRequest(`${s.url}/`, { method: 'POST', chunks: ['{"a":1}'] });
    expect(ok.body).toBe('{"a":1}|{"a":1}');
  });

  it('answers through onError with 413 for a declared length over the limit, without reading it', async () => {
    const s = await startWith((_, first) => first);
    const refused = await rawRequest(`${s.url}/`, { method: 'POST', headers: { 'content-length': String(LIMIT + 1) }, chunks: ['x'.repeat(LIMIT + 1)] });
    expect(refused.status).toBe(413);
    expect(refused.body).toBe('refused');
  });

  it('answers through onError with 413 for a chunked body that passes the limit', async () => {
    const s = await startWith((_, first) => first);
    const refused = await rawRequest(`${s.url}/`, { method: 'POST', headers: { 'transfer-encoding': 'chunked' }, chunks: ['y'.repeat(60), 'y'.repeat(60)] });
    expect(refused.status).toBe(413);
  });

  it('calls back with empty bytes for a request without a body', async () => {
    const s = await startWith((_, first) => `[${first}]`);
    const ok = await rawRequest(`${s.url}/`, { method: 'POST' });
    expect(ok.body).toBe('[]');
  });

  it('leaves no unhandled rejection when a Request is built after a refused read and its body is never read', async () => {
    server = await serve(
      {
        handle: (incoming, reply) =>
          incoming.readBody(
            LIMIT,
            () => reply({ status: 200, headers: {}, body: '' }),
            () => {
              incoming.toRequest(); // e.g. an error handler that looked at ctx.request
              reply({ status: 413, headers: {}, body: 'refused' });
            },
          ),
      },
      { port: 0 },
    );
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const refused = await rawRequest(`${server.url}/`, { method: 'POST', headers: { 'content-length': String(LIMIT + 1) }, chunks: ['z'.repeat(LIMIT + 1)] });
      expect(refused.status).toBe(413);
      await new Promise((r) => setTimeout(r, 20));
      expect(rejections, 'the refused body surfaced as an unhandled rejection').toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('serve: a JSON route of a real app answered as its body ends', () => {
  /** Serves the test app, noting whether the response had ended by the time the body's end event was over. */
  async function answerAndEndState(path: string, body: string) {
    probes = createProbes();
    const app = await createTestApp(probes, { bodyLimit: LIMIT });
    let endedByEndOfEvent: boolean | undefined;
    server = await serve(
      {
        handle: (incoming, reply) => {
          app.handle(incoming, reply);
          const node = incoming as unknown as { raw: IncomingMessage; response: { writableEnded: boolean } };
          // Registered after the reader's own listener, so it runs later in the same 'end' event.
          node.raw.once('end', () => (endedByEndOfEvent = node.response.writableEnded));
        },
      },
      { port: 0 },
    );
    const answer = await rawRequest(`${server.url}${path}`, { method: 'POST', headers: JSON_HEADERS, chunks: [body] });
    return { answer, endedByEndOfEvent };
  }

  it('writes a synchronous handler\u2019s answer inside the event that ends the body', async () => {
    const { answer, endedByEndOfEvent } = await answerAndEndState('/items', VALID);
    expect(answer.status).toBe(201);
    expect(endedByEndOfEvent, 'the answer waited for a promise reaction after the body ended').toBe(true);
  });

  it('writes a validation refusal inside the event that ends the body', async () => {
    const { answer, endedByEndOfEvent } = await answerAndEndState('/items', '{"name":1}');
    expect(answer.status).toBe(400);
    expect(endedByEndOfEvent, 'the refusal waited for a promise reaction after the body ended').toBe(true);
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
