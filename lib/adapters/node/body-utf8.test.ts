import { Agent } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, type NodeServer } from './serve.js';
import { createProbes, createTestApp, rawRequest } from './test-support.js';

// The Node adapter reads the body from the socket itself (no Request.text()): these go over a
// real socket, with a Content-Length and as a chunked upload whose chunks split the sequences.
const MALFORMED: readonly (readonly [string, readonly number[]])[] = [
  ['FF FE', [0xff, 0xfe]],
  ['C0 AF (an overlong "/")', [0xc0, 0xaf]],
  ['E2 82 (a truncated "€")', [0xe2, 0x82]],
  ['ED A0 80 (an encoded surrogate)', [0xed, 0xa0, 0x80]],
];

const encoder = new TextEncoder();
/** `{"name":"a<bytes>b","qty":1}` as bytes. */
const item = (inner: readonly number[]) => new Uint8Array([...encoder.encode('{"name":"a'), ...inner, ...encoder.encode('b","qty":1}')]);
/** The bytes in one-byte chunks: each becomes its own chunk of the chunked upload. */
const oneByteChunks = (bytes: Uint8Array) => Array.from(bytes, (_, i) => bytes.subarray(i, i + 1));

let server: NodeServer;
let agent: Agent;

beforeAll(async () => {
  server = await serve(await createTestApp(createProbes()), { port: 0 });
  agent = new Agent({ keepAlive: true, maxSockets: 1 });
});

afterAll(async () => {
  agent.destroy();
  await server.close({ forceAfterMs: 200 });
});

async function post(chunks: readonly Uint8Array[], headers: Record<string, string>) {
  const res = await rawRequest(`${server.url}/items`, { method: 'POST', headers, chunks, agent });
  return { status: res.status, type: res.headers['content-type'], json: JSON.parse(res.body) as { name?: string; detail?: string }, reused: res.reusedSocket };
}

describe('serve: a JSON body that is not UTF-8, over a real socket', () => {
  for (const [name, inner] of MALFORMED) {
    it(`refuses ${name} with 400 when the length is declared`, async () => {
      const bytes = item(inner);
      const { status, type, json } = await post([bytes], { 'content-type': 'application/json', 'content-length': String(bytes.length) });
      expect({ status, type, detail: json.detail }).toEqual({ status: 400, type: 'application/problem+json', detail: 'The body is not valid UTF-8.' });
    });

    it(`refuses ${name} with 400 in a chunked upload of one-byte chunks`, async () => {
      const { status, json } = await post(oneByteChunks(item(inner)), { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
      expect({ status, detail: json.detail }).toEqual({ status: 400, detail: 'The body is not valid UTF-8.' });
    });
  }

  it('keeps the connection after the refusal', async () => {
    const refused = await post([item([0xff])], { 'content-type': 'application/json' });
    const next = await post([item([])], { 'content-type': 'application/json' });
    expect([refused.status, next.status, next.reused]).toEqual([400, 201, true]);
  });

  it('accepts a U+FFFD the client sent and UTF-8 sequences split across chunks, as sent', async () => {
    const { status, json } = await post(oneByteChunks(item([0xef, 0xbf, 0xbd, ...encoder.encode('é€😀')])), { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    expect([status, json.name]).toEqual([201, 'a\uFFFDé€😀b']);
  });

  it('answers 415 for charset=latin1 before reading the body', async () => {
    const { status, type } = await post([item([0xe9])], { 'content-type': 'application/json; charset=latin1' });
    expect({ status, type }).toEqual({ status: 415, type: 'application/problem+json' });
  });
});
