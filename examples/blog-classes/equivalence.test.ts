import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { generateOpenApiDocument } from '../../lib/openapi/index.js';
import { createBlogApp } from '../blog/blog-app.js';
import { createBlogModule } from '../blog/blog-module.js';
import { BLOG_OPENAPI_OPTIONS } from '../blog/openapi.js';
import { createClassBlogModule } from './blog-module.js';

const T0 = Date.parse('2026-11-21T10:00:00.000Z');

/** A scripted session covering create, list, get, patch, delete, 400, 404, 405, 415 and a bad escape. */
const SCRIPT: [method: string, path: string, body?: string, contentType?: string][] = [
  ['POST', '/posts', '{"title":"First"}'],
  ['POST', '/posts', '{"title":"Second","body":"b"}'],
  ['GET', '/posts'],
  ['GET', '/posts/1'],
  ['PATCH', '/posts/1', '{"body":"changed"}'],
  ['PATCH', '/posts/2', '{"title":""}'],
  ['POST', '/posts', '{"title":'],
  ['POST', '/posts', 'title=x', 'text/plain'],
  ['DELETE', '/posts/2'],
  ['DELETE', '/posts/2'],
  ['GET', '/posts/2'],
  ['PUT', '/posts/1'],
  ['POST', '/posts/1', '{}'],
  ['GET', '/posts/%E0%A4%A'],
  ['HEAD', '/posts'],
  ['GET', '/posts'],
];

async function transcript(app: App, clock: ReturnType<typeof createManualClock>): Promise<string[]> {
  const lines: string[] = [];
  for (const [method, path, body, contentType] of SCRIPT) {
    clock.advance(1000);
    const headers = body === undefined ? undefined : { 'content-type': contentType ?? 'application/json' };
    const res = await app.fetch(new Request(`http://localhost${path}`, { method, body, headers }));
    const headerLines = [...res.headers].map(([k, v]) => `${k}: ${v}`).join('; ');
    lines.push(`${method} ${path} -> ${res.status} [${headerLines}] ${await res.text()}`);
  }
  return lines;
}

describe('builder blog and class blog', () => {
  it('have deep-equal route tables: the CRUD routes, the event stream, the live WebSocket and attachments', async () => {
    const builder = await createBlogApp({}, { logger: silentLogger });
    const classes = await createApp(createClassBlogModule(), { logger: silentLogger });
    // Everything but the module's name (the npm start blog wraps its controllers in BlogAppModule).
    const withoutModule = (app: App) => app.routes.map(({ module: _module, ...route }) => route);
    expect(withoutModule(classes)).toEqual(withoutModule(builder));
    expect(classes.routes.map((r) => `${r.method} ${r.path} ${r.status} ${r.name}`)).toEqual([
      'GET /posts 200 list',
      'GET /posts/:id 200 get',
      'POST /posts 201 create',
      'PATCH /posts/:id 200 update',
      'DELETE /posts/:id 200 remove',
      'GET /posts/events 200 events',
      'GET /posts/live 200 live',
      'POST /posts/:id/attachments 201 attach',
      'GET /posts/:id/attachments/:name 200 attachment',
    ]);
  });

  it('serve identical OpenAPI documents', async () => {
    const builder = generateOpenApiDocument(await createBlogApp({}, { logger: silentLogger }), BLOG_OPENAPI_OPTIONS);
    const classes = generateOpenApiDocument(await createApp(createClassBlogModule(), { logger: silentLogger }), BLOG_OPENAPI_OPTIONS);
    expect(Object.keys(builder.paths), 'the builder document covers the extras').toContain('/posts/{id}/attachments');
    expect(classes).toEqual(builder);
  });

  it('upload and download the same attachment', async () => {
    const app = await createApp(createClassBlogModule(), { logger: silentLogger });
    await app.request('/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"With a file"}' });
    const form = new FormData();
    form.set('file', new File(['hello'], 'hello.txt', { type: 'text/plain' }));
    const uploaded = await app.request('/posts/1/attachments', { method: 'POST', body: form });
    expect(uploaded.status).toBe(201);
    expect(await uploaded.json()).toEqual({ name: 'hello.txt', size: 5, contentType: 'text/plain' });
    const downloaded = await app.request('/posts/1/attachments/hello.txt');
    expect(downloaded.headers.get('content-type')).toBe('text/plain');
    expect(await downloaded.text()).toBe('hello');
  });

  it('give byte-identical responses to the same scripted requests', async () => {
    const builderClock = createManualClock(T0);
    const classClock = createManualClock(T0);
    const builder = await transcript(await createApp(createBlogModule({ clock: builderClock })), builderClock);
    const classes = await transcript(await createApp(createClassBlogModule({ clock: classClock })), classClock);
    expect(classes).toEqual(builder);
    expect(builder.map((line) => line.split(' -> ')[1]?.slice(0, 3))).toEqual([
      '201', '201', '200', '200', '200', '400', '400', '415', '204', '404', '404', '405', '405', '400', '200', '200',
    ]);
  });
});
