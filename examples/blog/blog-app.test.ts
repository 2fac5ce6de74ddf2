import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createManualClock, silentLogger } from '../../lib/index.js';
import { createBlogApp } from './blog-app.js';

const ORIGIN = 'http://localhost:5173';
const json = (body: unknown, headers: Record<string, string> = {}) => ({ method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

function multipart(content: string, filename = 'notes.txt', type = 'text/plain') {
  const boundary = 'blogBOUNDARY';
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${content}\r\n--${boundary}--\r\n`;
  return { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
}

const blog = (env: Parameters<typeof createBlogApp>[0] = {}) => createBlogApp(env, { clock: createManualClock(Date.parse('2026-11-22T00:00:00Z')), logger: silentLogger });

describe('the blog as npm start serves it', () => {
  it('keeps the CRUD contract', async () => {
    const app = await blog();
    const created = await app.request('/posts', json({ title: 'Hello' }));
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ id: '1', title: 'Hello', body: '', createdAt: '2026-11-22T00:00:00.000Z' });
    expect((await app.request('/posts/1', { method: 'DELETE' })).status).toBe(204);
    expect((await app.request('/posts/1')).status).toBe(404);
  });

  it('puts security headers and an x-request-id on every answer, errors included', async () => {
    const app = await blog();
    for (const [path, init] of [['/posts', {}], ['/posts/99', {}], ['/nowhere', {}], ['/posts', json({ title: '' })]] as const) {
      const res = await app.request(path, init);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-request-id'), path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('enables CORS for CORS_ORIGINS only: a preflight with a custom header, and the header on a 400', async () => {
    const app = await blog({ CORS_ORIGINS: `${ORIGIN}, https://other.example` });
    const preflight = await app.request('/posts', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-client' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type, x-client');
    const invalid = await app.request('/posts', json({ title: '' }, { origin: ORIGIN }));
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    const off = await (await blog()).request('/posts', { headers: { origin: ORIGIN } });
    expect(off.headers.get('access-control-allow-origin'), 'no CORS without CORS_ORIGINS').toBeNull();
  });

  it('compresses and tags the post list', async () => {
    const app = await blog();
    for (let i = 0; i < 30; i++) await app.request('/posts', json({ title: `Post number ${i}`, body: 'x'.repeat(40) }));
    const res = await app.request('/posts', { headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers.get('content-encoding')).toBe('gzip');
    expect(JSON.parse(gunzipSync(Buffer.from(await res.arrayBuffer())).toString())).toHaveLength(30);
    const tag = res.headers.get('etag') as string;
    expect(tag).toMatch(/^"/);
    expect((await app.request('/posts', { headers: { 'if-none-match': tag } })).status).toBe(304);
  });

  it('streams an SSE event with the post for every created post', async () => {
    const app = await blog();
    const res = await app.request('/posts/events');
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const reader = (res.body as ReadableStream<Uint8Array>).getReader();
    await app.request('/posts', json({ title: 'Live' }));
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('event: post-created\nid: 1\ndata: {"id":"1","title":"Live","body":"","createdAt":"2026-11-22T00:00:00.000Z"}\n\n');
    await reader.cancel();
  });

  it('takes an attachment (201) and serves its bytes with their type', async () => {
    const app = await blog();
    await app.request('/posts', json({ title: 'With file' }));
    const res = await app.request('/posts/1/attachments', multipart('hello file'));
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ name: 'notes.txt', size: 10, contentType: 'text/plain' });
    const file = await app.request('/posts/1/attachments/notes.txt');
    expect(file.headers.get('content-type')).toBe('text/plain');
    expect(await file.text()).toBe('hello file');
    expect((await app.request('/posts/1/attachments/missing.txt')).status).toBe(404);
  });

  it('refuses attachments: 404 unknown post, 415 not multipart, 413 over ATTACHMENT_LIMIT_BYTES (also chunked)', async () => {
    const app = await blog({ ATTACHMENT_LIMIT_BYTES: '1000' });
    expect((await app.request('/posts/9/attachments', multipart('x'))).status).toBe(404);
    await app.request('/posts', json({ title: 'p' }));
    expect((await app.request('/posts/1/attachments', json({ file: 'x' }))).status).toBe(415);
    const big = multipart('y'.repeat(2_000));
    expect((await app.request('/posts/1/attachments', big)).status).toBe(413);
    const chunked = new Request('http://localhost/posts/1/attachments', { ...big, body: new Blob([big.body]).stream(), duplex: 'half' } as RequestInit);
    expect((await app.request(chunked)).status).toBe(413);
  });

  it('serves the API reference page and its assets locally at /docs', async () => {
    const app = await blog();
    const page = await app.request('/docs');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await page.text();
    expect(html).toContain('<script src="/docs/swagger-ui-bundle.js"></script>');
    expect(html).not.toMatch(/https?:\/\//);
    const bundle = await app.request('/docs/swagger-ui-bundle.js');
    expect(bundle.status).toBe(200);
    expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(500_000);
    expect(await (await app.request('/docs/init.js')).text()).toContain('"/openapi.json"');
  });
});
