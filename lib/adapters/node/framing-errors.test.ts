import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type NodeServer } from './serve.js';
import { createProbes, createTestApp, rawSocket } from './test-support.js';

// Every framing error in a request body is answered before the connection closes, whatever the
// route does with the body (validated JSON read on the fast path, a body nobody reads, a body
// read through the web Request): a client can tell a refusal from a network fault.
let server: NodeServer;
beforeAll(async () => {
  server = await serve(await createTestApp(createProbes()), { port: 0 });
});
afterAll(() => server.close({ forceAfterMs: 100 }));

async function exchange(bytes: string): Promise<string> {
  const { socket, received } = await rawSocket(server.port);
  socket.write(bytes);
  // Some cases leave the request unfinished from the client's side: the server must still answer and close.
  const timeout = setTimeout(() => socket.destroy(), 3_000);
  const text = await received;
  clearTimeout(timeout);
  return text;
}

const chunked = (path: string, chunks: string) => `POST ${path} HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}`;

const MALFORMED_CHUNKS: readonly (readonly [string, string])[] = [
  ['a size that is not hex', 'zz\r\n{}\r\n0\r\n\r\n'],
  ['a negative size', '-1\r\n{}\r\n0\r\n\r\n'],
  ['an overflowing size', 'ffffffffffffffffffff\r\n{}\r\n0\r\n\r\n'],
  ['a size with a leading space', ' 2\r\n{}\r\n0\r\n\r\n'],
  ['a size with a 0x prefix', '0x2\r\n{}\r\n0\r\n\r\n'],
  ['data longer than its size', '2\r\n{"name":"x"}\r\n0\r\n\r\n'],
];

const statusLines = (text: string) => text.match(/HTTP\/1\.1 \d{3}/g) ?? [];

describe('framing errors in a request body, on a raw socket', () => {
  // A route that reads the body: the JSON fast path (/items) and the web Request's stream (/echo).
  for (const path of ['/items', '/echo']) {
    for (const [name, chunks] of MALFORMED_CHUNKS) {
      it(`answers 400 problem+json before closing for ${name} (POST ${path})`, async () => {
        const text = await exchange(chunked(path, chunks));
        expect(text, `no refusal on the socket for ${name}: ${JSON.stringify(text)}`).toMatch(/^HTTP\/1\.1 400 /);
        expect(text).toContain('application/problem+json');
        expect(text.toLowerCase()).toContain('connection: close');
        expect(statusLines(text), 'one answer for one request').toHaveLength(1);
      });
    }
  }

  // A route that answers without reading the body: its answer is the request's only one.
  for (const [name, chunks] of MALFORMED_CHUNKS) {
    it(`keeps the handler's answer alone and closes for ${name} (POST /ignore)`, async () => {
      const text = await exchange(chunked('/ignore', chunks));
      expect(statusLines(text), `one answer, the handler's: ${JSON.stringify(text)}`).toEqual(['HTTP/1.1 200']);
    });
  }

  it('answers 501 for an unknown transfer coding', async () => {
    const text = await exchange('POST /items HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n');
    expect(text, `no answer for Transfer-Encoding: xchunked: ${JSON.stringify(text)}`).toMatch(/^HTTP\/1\.1 501 /);
    expect(statusLines(text)).toHaveLength(1);
  });

  it('answers 400 when chunked is not the last transfer coding (RFC 9112 \u00a76.3)', async () => {
    const text = await exchange('POST /items HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n');
    expect(statusLines(text).length, `an answer: ${JSON.stringify(text)}`).toBe(1);
  });
});
