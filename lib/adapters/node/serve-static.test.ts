import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../app/app.js';
import { createApp } from '../../app/create-app.js';
import { defineModule } from '../../modules/module.js';
import { serveStatic } from './serve-static.js';

let dir: string;
let app: App;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'tessera-static-'));
  const root = join(dir, 'public');
  mkdirSync(join(root, 'css'), { recursive: true });
  writeFileSync(join(root, 'index.html'), '<h1>hi</h1>');
  writeFileSync(join(root, 'css', 'site.css'), 'body{}');
  writeFileSync(join(root, 'data.bin'), Buffer.from('0123456789'));
  writeFileSync(join(dir, 'secret.txt'), 'outside the root');
  symlinkSync(join(dir, 'secret.txt'), join(root, 'link-out.txt'));
  utimesSync(join(root, 'index.html'), new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
  app = await createApp(defineModule({ name: 'Static' }));
  serveStatic(app, '/static', root);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('serveStatic', () => {
  it('serves files with their type, length, ETag and Last-Modified', async () => {
    const res = await app.request('/static/index.html');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('content-length')).toBe('11');
    expect(res.headers.get('etag')).toMatch(/^"b-[0-9a-f]+"$/);
    expect(res.headers.get('last-modified')).toBe('Thu, 01 Jan 2026 00:00:00 GMT');
    expect(await res.text()).toBe('<h1>hi</h1>');
    expect(await (await app.request('/static/css/site.css')).text()).toBe('body{}');
  });

  it('answers 304 to a matching If-None-Match or an If-Modified-Since at or after the change', async () => {
    const tag = (await app.request('/static/index.html')).headers.get('etag') as string;
    expect((await app.request('/static/index.html', { headers: { 'if-none-match': tag } })).status).toBe(304);
    expect((await app.request('/static/index.html', { headers: { 'if-modified-since': 'Thu, 01 Jan 2026 00:00:00 GMT' } })).status).toBe(304);
    expect((await app.request('/static/index.html', { headers: { 'if-modified-since': 'Wed, 31 Dec 2025 00:00:00 GMT' } })).status).toBe(200);
  });

  it('serves byte ranges (206), suffix ranges, 416 past the end, and the whole file when If-Range does not match', async () => {
    const part = await app.request('/static/data.bin', { headers: { range: 'bytes=2-5' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 2-5/10');
    expect(await part.text()).toBe('2345');
    expect(await (await app.request('/static/data.bin', { headers: { range: 'bytes=-3' } })).text()).toBe('789');
    const past = await app.request('/static/data.bin', { headers: { range: 'bytes=20-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */10');
    expect((await app.request('/static/data.bin', { headers: { range: 'bytes=2-5', 'if-range': '"stale"' } })).status).toBe(200);
  });

  it('answers HEAD like GET without a body', async () => {
    const res = await app.request('/static/index.html', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('11');
    expect(await res.text()).toBe('');
  });

  it.each([
    ['a decoded ..', '/static/css/../../secret.txt'],
    ['%2e%2e', '/static/%2e%2e/secret.txt'],
    ['an encoded slash', '/static/..%2fsecret.txt'],
    ['an encoded backslash', '/static/..%5csecret.txt'],
    ['a symlink out of the root', '/static/link-out.txt'],
    ['a directory', '/static/css'],
    ['a missing file', '/static/nope.txt'],
  ])('never serves %s (404)', async (_what, path) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expect(await res.text()).not.toContain('outside the root');
  });

  it('refuses a root that does not exist at mount time', async () => {
    const other = await createApp(defineModule({ name: 'Other' }));
    expect(() => serveStatic(other, '/x', join(dir, 'missing'))).toThrow(/does not exist/);
  });
});
