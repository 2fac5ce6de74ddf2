import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createApp, defineController, defineModule, get, type AppOptions } from '../index.js';
import { brotliEncoder } from '../node.js';
import { compression, negotiateEncoding } from './index.js';

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `post number ${i}` })) };

async function appWith(options: AppOptions) {
  const controller = defineController({
    name: 'C',
    routes: () => ({
      big: get('/big', () => big),
      small: get('/small', () => ({ ok: true })),
      png: get('/png', () => new Response(new Uint8Array(4096), { headers: { 'content-type': 'image/png' } })),
      fixed: get('/fixed', () => new Response(JSON.stringify(big), { headers: { 'content-type': 'application/json', 'cache-control': 'no-transform' } })),
      stream: get('/stream', () => {
        const encoder = new TextEncoder();
        let n = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(c) {
            if (n++ < 50) c.enqueue(encoder.encode(`line ${n}\n`));
            else c.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/plain' } });
      }),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), options);
}

const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe('negotiateEncoding', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, *;q=0.1', 'gzip'],
    ['identity', undefined],
    ['*;q=0', undefined],
    ['GZIP', 'gzip'],
  ])('%s -> %s', (header, expected) => {
    expect(negotiateEncoding(header, ['br', 'gzip', 'deflate'])).toBe(expected);
  });

  it('answers identity without the header', () => {
    expect(negotiateEncoding(null, ['gzip'])).toBeUndefined();
  });
});

describe('compression', () => {
  it('gzips a large JSON answer (platform CompressionStream) and says so, with Vary', async () => {
    const app = await appWith({ middleware: [compression()] });
    const res = await app.request('/big', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(res.headers.get('vary')).toBe('Accept-Encoding');
    expect(res.headers.get('content-length')).toBeNull();
    expect(JSON.parse(gunzipSync(await bytes(res)).toString())).toEqual(big);
  });

  it('uses brotli with the Node encoder when the client prefers it', async () => {
    const app = await appWith({ middleware: [compression({ encoders: { br: brotliEncoder } })] });
    const res = await app.request('/big', { headers: { 'accept-encoding': 'gzip;q=0.5, br' } });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(JSON.parse(brotliDecompressSync(await bytes(res)).toString())).toEqual(big);
  });

  it('compresses a streamed body as it flows', async () => {
    const app = await appWith({ middleware: [compression()] });
    const res = await app.request('/stream', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(await bytes(res)).toString()).toMatch(/^line 1\n[\s\S]*line 50\n$/);
  });

  it('leaves alone: small bodies (Vary still set), images, no-transform, and clients that refuse', async () => {
    const app = await appWith({ middleware: [compression()] });
    const small = await app.request('/small', { headers: { 'accept-encoding': 'gzip' } });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(small.headers.get('vary')).toBe('Accept-Encoding');
    expect((await app.request('/png', { headers: { 'accept-encoding': 'gzip' } })).headers.get('content-encoding')).toBeNull();
    expect((await app.request('/fixed', { headers: { 'accept-encoding': 'gzip' } })).headers.get('content-encoding')).toBeNull();
    expect((await app.request('/big', { headers: { 'accept-encoding': 'gzip;q=0' } })).headers.get('content-encoding')).toBeNull();
    expect((await app.request('/big')).headers.get('content-encoding')).toBeNull();
  });
});
