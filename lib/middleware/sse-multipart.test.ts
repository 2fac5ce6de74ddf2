import { describe, expect, it } from 'vitest';
import { createApp, defineController, defineModule, get, post, silentLogger } from '../index.js';
import { serve } from '../node.js';
import { formatSseMessage, readMultipart, sse, type SseStream } from './index.js';


async function appWith(onStream: (stream: SseStream) => void) {
  const controller = defineController({
    name: 'Files',
    routes: () => ({
      events: get('/events', (ctx) => sse(ctx, onStream, { keepAliveMs: 20 })),
      upload: post('/upload', { bodyLimit: 2_000 }, async (ctx) => {
        const form = await readMultipart(ctx, { maxFileBytes: 500, maxFiles: 1 });
        const file = form.get('file');
        return file instanceof File ? { name: file.name, size: file.size, type: file.type } : { name: null };
      }),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), { logger: silentLogger });
}

async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, text: string): Promise<string> {
  const decoder = new TextDecoder();
  let seen = '';
  while (!seen.includes(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += decoder.decode(value);
  }
  return seen;
}

describe('formatSseMessage', () => {
  it('writes event, id, retry and one data field per line; JSON for non-strings', () => {
    expect(formatSseMessage({ event: 'post', id: '7', retry: 1000, data: 'a\nb' })).toBe('event: post\nid: 7\nretry: 1000\ndata: a\ndata: b\n\n');
    expect(formatSseMessage({ data: { id: '1' } })).toBe('data: {"id":"1"}\n\n');
  });

  it('refuses a line break in event or id (it would inject fields)', () => {
    expect(() => formatSseMessage({ event: 'a\ndata: forged', data: 'x' })).toThrow(/line break/);
  });
});

describe('sse', () => {
  it('streams events with the event-stream headers and keep-alive comments', async () => {
    const app = await appWith((stream) => void stream.send({ event: 'hello', data: { n: 1 } }));
    const res = await app.request('/events');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    const text = await readUntil(reader, ': keep-alive');
    expect(text).toContain('event: hello\ndata: {"n":1}\n\n');
    await reader.cancel();
  });

  it('tells the producer when the client goes away', async () => {
    let signal: AbortSignal | undefined;
    const app = await appWith((stream) => {
      signal = stream.signal;
    });
    const res = await app.request('/events');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await readUntil(reader, ': keep-alive');
    await reader.cancel();
    expect(signal?.aborted).toBe(true);
  });

  it('over a socket: headers at once, and graceful shutdown ends the stream and tells the producer', async () => {
    let signal: AbortSignal | undefined;
    const app = await appWith((stream) => {
      signal = stream.signal;
    });
    const server = await serve(app, { port: 0 });
    const res = await fetch(`${server.url}/events`);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reading = res.text();
    await server.close({ streamGraceMs: 50, forceAfterMs: 2_000 });
    await expect(reading).resolves.toMatch(/^(: keep-alive\n\n)*$/);
    expect(signal?.aborted).toBe(true);
  });
});

function multipart(parts: { name: string; filename?: string; type?: string; content: string }[]) {
  const boundary = 'xBOUNDARYx';
  const body = parts
    .map((p) => `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ''}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ''}\r\n${p.content}\r\n`)
    .join('') + `--${boundary}--\r\n`;
  return { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
}

describe('readMultipart', () => {
  it('reads a file field', async () => {
    const app = await appWith(() => undefined);
    const res = await app.request('/upload', multipart([{ name: 'file', filename: 'a.txt', type: 'text/plain', content: 'hello' }]));
    expect(await res.json()).toEqual({ name: 'a.txt', size: 5, type: 'text/plain' });
  });

  it('answers 415 for a body that is not multipart', async () => {
    const app = await appWith(() => undefined);
    expect((await app.request('/upload', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })).status).toBe(415);
  });

  it('answers 413 past the route body limit, also for a chunked body', async () => {
    const app = await appWith(() => undefined);
    const big = multipart([{ name: 'file', filename: 'big.bin', content: 'x'.repeat(5_000) }]);
    expect((await app.request('/upload', big)).status).toBe(413);
    const chunked = new Request('http://localhost/upload', { ...big, body: new Blob([big.body]).stream(), duplex: 'half' } as RequestInit);
    expect((await app.request(chunked)).status).toBe(413);
  });

  it('answers 413 for one file over maxFileBytes or too many files, and 400 for a malformed body', async () => {
    const app = await appWith(() => undefined);
    expect((await app.request('/upload', multipart([{ name: 'file', filename: 'f', content: 'y'.repeat(600) }]))).status).toBe(413);
    expect((await app.request('/upload', multipart([{ name: 'a', filename: 'a', content: '1' }, { name: 'b', filename: 'b', content: '2' }]))).status).toBe(413);
    expect((await app.request('/upload', { method: 'POST', headers: { 'content-type': 'multipart/form-data; boundary=zz' }, body: 'not multipart at all' })).status).toBe(400);
  });
});
