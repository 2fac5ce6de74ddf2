import { Agent, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../logging/json-logger.js';
import type { LogFields } from '../../logging/logger.js';
import type { App } from '../../app/app.js';
import { nodeServer, serve, type NodeServer } from './serve.js';
import { createRequestListener } from './node-listeners.js';
import { createProbes, createTestApp, rawRequest, rawSocket, withTimeout, type Probes } from './test-support.js';

let server: NodeServer | undefined;
let probes: Probes;
let app: App;

async function start(options: Parameters<typeof serve>[1] = {}, bodyLimit?: number): Promise<NodeServer> {
  probes = createProbes();
  app = await createTestApp(probes, bodyLimit === undefined ? {} : { bodyLimit });
  server = await serve(app, { port: 0, ...options });
  return server;
}

afterEach(async () => {
  probes?.gate.resolve();
  probes?.aborted.resolve('test over');
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

describe('serve: requests and responses over a real socket', () => {
  it('listens on an ephemeral port on 127.0.0.1 and reports its url', async () => {
    const s = await start();
    expect(s.port).toBeGreaterThan(0);
    expect(s.host).toBe('127.0.0.1');
    expect(s.url).toBe(`http://127.0.0.1:${s.port}`);
  });

  it('answers a JSON GET with path params and the raw query', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/hello/Ada%20L?x=1&y=two`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    const text = await res.text();
    expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
    expect(JSON.parse(text)).toEqual({ hello: 'Ada L', query: { x: '1', y: 'two' } });
  });

  it('validates a JSON POST body: 201 when valid, 400 problem+json with issues when not', async () => {
    const s = await start();
    const ok = await fetch(`${s.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'pen', qty: 2 }),
    });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ name: 'pen', qty: 2 });

    const bad = await fetch(`${s.url}/items`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: '', qty: -1 }),
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await bad.json()) as { status: number; issues: unknown[] };
    expect(problem.status).toBe(400);
    expect(Array.isArray(problem.issues)).toBe(true);
    expect(problem.issues.length).toBeGreaterThanOrEqual(2);
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/hello/x`, { method: 'DELETE' });
    expect(res.status).toBe(405);
    // Which methods the core lists is its business; the adapter must pass the header through.
    expect(res.headers.get('allow')).toMatch(/\bGET\b/);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers HEAD without a body', async () => {
    const s = await start();
    const res = await rawRequest(`${s.url}/hello/x`, { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('reports the client socket address as clientAddress', async () => {
    const s = await start();
    const body = (await (await fetch(`${s.url}/ip`)).json()) as { ip: string };
    expect(['127.0.0.1', '::ffff:127.0.0.1']).toContain(body.ip);
  });

  it('builds a real web Request on demand, with the full URL, headers and body', async () => {
    const s = await start();
    const res = await fetch(`${s.url}/echo?q=1`, { method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hi there' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ url: `${s.url}/echo?q=1`, method: 'POST', text: 'hi there', type: 'text/plain' });
  });

  it('refuses a Host header that would change the URL a handler sees', async () => {
    const s = await start();
    const { socket, received } = await rawSocket(s.port);
    socket.write('POST /echo HTTP/1.1\r\nHost: evil.test/x?\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi');
    const text = await withTimeout(received, 2000, 'the response');
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
  });

  it('keeps every Set-Cookie of a Response as its own header', async () => {
    const s = await start();
    const res = await rawRequest(`${s.url}/cookies`);
    expect(res.status).toBe(204);
    expect(res.headers['set-cookie']).toEqual(['a=1; Path=/', 'b=2; Path=/; HttpOnly']);
  });

  it('sends a Response whose body is already whole with a Content-Length', async () => {
    const s = await start();
    const res = await rawRequest(`${s.url}/text`);
    expect(res.body).toBe('plain text');
    expect(res.headers['content-length']).toBe('10');
    expect(res.headers['transfer-encoding']).toBeUndefined();
  });

  it('serves many keep-alive requests on one connection', async () => {
    const s = await start();
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const results = [];
      for (let i = 0; i < 5; i++) results.push(await rawRequest(`${s.url}/hello/${i}`, { agent }));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
      expect(results.slice(1).every((r) => r.reusedSocket)).toBe(true);
    } finally {
      agent.destroy();
    }
  });

  it('works through app.listen(0) with the nodeServer adapter', async () => {
    probes = createProbes();
    const listening = await (await createTestApp(probes, { server: nodeServer })).listen(0);
    try {
      const res = await fetch(`${listening.url}/hello/core`);
      expect(await res.json()).toEqual({ hello: 'core', query: {} });
    } finally {
      await listening.close();
    }
  });

  it('plugs into a server created by hand via createRequestListener', async () => {
    probes = createProbes();
    const own = createServer(createRequestListener(await createTestApp(probes)));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = own.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/hello/own`);
      expect(await res.json()).toEqual({ hello: 'own', query: {} });
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });

  it('rejects with SERVER_PORT_IN_USE, naming the port and the fix, when the port is taken', async () => {
    const s = await start();
    const refusal = await serve(app, { port: s.port }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal, 'a second server on a busy port did not fail with a TesseraError').toMatchObject({ name: 'TesseraError', code: 'SERVER_PORT_IN_USE' });
    expect((refusal as Error).message).toContain(`127.0.0.1:${s.port}`);
    expect((refusal as Error).message).toContain('listen on another port');
    expect(((refusal as Error).cause as { code?: string }).code).toBe('EADDRINUSE');
  });
});

describe('serve: failures of the app itself', () => {
  it('answers 500 problem+json when app.handle throws or replies with an answer that cannot be written, and keeps serving', async () => {
    const errors: unknown[] = [];
    const logger = { ...silentLogger, error: (fields: LogFields) => void errors.push(fields.err) };
    let calls = 0;
    server = await serve(
      {
        handle: (_incoming, reply) => {
          calls += 1;
          if (calls === 1) throw new Error('sync failure');
          // An answer that cannot be written (a status Node refuses) fails inside the reply.
          reply({ status: 1000, headers: {}, body: 'x' });
        },
      },
      { port: 0, logger },
    );
    for (let i = 0; i < 2; i++) {
      const res = await fetch(`${server.url}/anything`);
      expect(res.status).toBe(500);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(await res.json()).toEqual({ type: 'about:blank', title: 'Internal Server Error', status: 500 });
    }
    expect(errors.map((e) => (e as Error).message)).toEqual(['sync failure', 'Invalid status code: 1000']);
  });
});
