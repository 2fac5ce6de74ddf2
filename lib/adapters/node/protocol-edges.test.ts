import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../../logging/json-logger.js';
import { createApp } from '../../app/create-app.js';
import { defineController } from '../../routing/controller.js';
import { get, post } from '../../routing/route.js';
import { defineModule } from '../../modules/module.js';
import { serve, type NodeServer } from './serve.js';
import { rawSocket, withTimeout } from './test-support.js';

let server: NodeServer | undefined;

/** `/` and `/admin` say which route ran and which URL the handler saw; `/upload` takes 1 000 bytes at most. */
async function start(): Promise<NodeServer> {
  const controller = defineController({
    name: 'Edges',
    routes: () => ({
      root: get('/', (ctx) => ({ route: 'root', url: ctx.request.url })),
      admin: get('/admin', (ctx) => ({ route: 'admin', url: ctx.request.url })),
      posts: get('/posts', (ctx) => ({ route: 'posts', url: ctx.request.url })),
      upload: post('/upload', { bodyLimit: 1_000, body: z.unknown() }, () => ({ ok: true })),
    }),
  });
  const app = await createApp(defineModule({ name: 'Edges', controllers: [controller] }), { logger: silentLogger });
  server = await serve(app, { port: 0, logger: silentLogger });
  return server;
}

afterEach(async () => {
  await server?.close({ forceAfterMs: 200 });
  server = undefined;
});

/** Sends raw bytes and returns everything the server wrote until it closed the connection. */
async function exchange(port: number, bytes: string): Promise<string> {
  const { socket, received } = await rawSocket(port);
  socket.write(bytes);
  return withTimeout(received, 5_000, 'the server to answer and close');
}

/** Every status line in what the server sent (a response may follow a body without a line break). */
function statusLines(text: string): string[] {
  return [...text.matchAll(/HTTP\/1\.1 \d{3} [^\r]*/g)].map((match) => match[0]);
}

function jsonBody(text: string): unknown {
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4));
}

const CLOSE = 'Connection: close\r\n';

describe('absolute-form request targets (RFC 9112 §3.2.2) route like the URL the handler sees', () => {
  it('routes `http://host?next=/admin` to /, never to /admin', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET http://example.test?next=/admin HTTP/1.1\r\nHost: example.test\r\n${CLOSE}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
    expect(jsonBody(text)).toEqual({ route: 'root', url: 'http://example.test/?next=/admin' });
  });

  it('matches the scheme case-insensitively: `HTTP://host/posts` is /posts', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET HTTP://example.test/posts HTTP/1.1\r\nHost: example.test\r\n${CLOSE}\r\n`);
    expect(jsonBody(text)).toEqual({ route: 'posts', url: 'http://example.test/posts' });
  });

  it('resolves dot segments the way the handler\u2019s URL does: /x/../admin is /admin for both', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET /x/%2e%2e/admin HTTP/1.1\r\nHost: example.test\r\n${CLOSE}\r\n`);
    expect(jsonBody(text)).toEqual({ route: 'admin', url: 'http://example.test/admin' });
  });

  it('answers 400 to an absolute target with an empty authority (`http:///admin`)', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET http:///admin HTTP/1.1\r\nHost: example.test\r\n${CLOSE}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
  });

  it('answers 400 when Host disagrees with the authority of an absolute target', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET http://admin.internal/admin HTTP/1.1\r\nHost: example.test\r\n${CLOSE}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
    expect(jsonBody(text)).toMatchObject({ status: 400, detail: 'The Host header disagrees with the authority of the request target.' });
  });

  it('accepts a Host that names the same authority with its default port', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET http://Example.test/posts HTTP/1.1\r\nHost: example.test:80\r\n${CLOSE}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK']);
  });
});

describe('other request-target forms and Host headers', () => {
  it('answers 400 to the asterisk form (`OPTIONS *`) instead of dropping the connection', async () => {
    const s = await start();
    const text = await exchange(s.port, `OPTIONS * HTTP/1.1\r\nHost: example.test\r\n${CLOSE}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
  });

  it('answers CONNECT (authority form) with 405 and an empty Allow instead of dropping the connection', async () => {
    const s = await start();
    const text = await exchange(s.port, `CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 405 Method Not Allowed']);
    expect(text.toLowerCase()).toContain('\r\nallow: \r\n');
  });

  it('answers 400 to a request with two Host headers (RFC 9112 §3.2)', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET / HTTP/1.1\r\nHost: example.test\r\nHost: admin.internal\r\n${CLOSE}\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
    expect(jsonBody(text)).toMatchObject({ detail: 'The request has more than one Host header.' });
  });
});

describe('backslashes in the request target', () => {
  // URL reads `\\` as `/` in a path: `/posts\\..\\admin` would be routed to /admin, which a
  // front proxy filtering on the raw target never saw.
  for (const target of ['/posts\\..\\admin', '/posts\\admin', '/admin\\', 'http://example.test/posts\\..\\admin', '/posts?next=a\\b']) {
    it(`refuses ${target} with 400 instead of routing it`, async () => {
      const s = await start();
      const text = await exchange(s.port, `GET ${target} HTTP/1.1\r\nHost: example.test\r\nConnection: close\r\n\r\n`);
      expect(statusLines(text)).toEqual(['HTTP/1.1 400 Bad Request']);
      expect(jsonBody(text)).toMatchObject({ detail: 'The request target contains a backslash.' });
      expect(text, 'no route answered').not.toContain('"route"');
    });
  }
});

describe('pipelining and refused bodies', () => {
  it('answers a well-framed request before a 400 for the garbage pipelined after it, then closes', async () => {
    const s = await start();
    const text = await exchange(s.port, `GET /posts HTTP/1.1\r\nHost: example.test\r\n\r\nTHIS IS NOT HTTP\r\n\r\n`);
    expect(statusLines(text)).toEqual(['HTTP/1.1 200 OK', 'HTTP/1.1 400 Bad Request']);
    expect(text).toContain('"route":"posts"');
  });

  it('refuses a broken chunk inside the body being read with a 400 at once, instead of holding the handler', async () => {
    const s = await start();
    const started = Date.now();
    // A chunk size that is not hex, in the body of the request in flight: that body can never end.
    const text = await exchange(s.port, `POST /upload HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\nZZ\r\n`);
    expect(Date.now() - started, 'the connection waited for an answer that the broken body could never produce').toBeLessThan(800);
    expect(statusLines(text), 'the request whose body broke is refused before the connection closes').toEqual(['HTTP/1.1 400 Bad Request']);
  });

  it('answers 413 to a client that is still sending a body over the drain limit, without a reset', async () => {
    const s = await start();
    // Half-open, as an uploader that stops sending when the server ends its side: Node's default
    // client would end its own side at once and report its own writes as EPIPE.
    const socket: Socket = connect({ port: s.port, host: '127.0.0.1', allowHalfOpen: true });
    let ended = false;
    socket.once('end', () => {
      ended = true;
      socket.end();
    });
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const total = 8 * 1_048_576;
    let text = '';
    let error: NodeJS.ErrnoException | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => (error ??= e));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write(`POST /upload HTTP/1.1\r\nHost: example.test\r\nContent-Type: application/json\r\nContent-Length: ${total}\r\n\r\n`);
    // Keep sending the whole body, as a client uploading a file does before it reads the answer.
    const chunk = Buffer.alloc(64 * 1024, 0x61);
    let sent = 0;
    const pump = () => {
      while (sent < total && !socket.destroyed && !ended) {
        sent += chunk.byteLength;
        if (!socket.write(chunk)) {
          socket.once('drain', pump);
          return;
        }
      }
    };
    pump();
    await withTimeout(closed, 10_000, 'the connection to close');
    expect(statusLines(text), `the client read the 413 (socket error: ${error?.code ?? 'none'})`).toEqual(['HTTP/1.1 413 Payload Too Large']);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(error?.code, 'the upload ends without a reset or a broken pipe').toBeUndefined();
  });
});
