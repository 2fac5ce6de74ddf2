import { describe, expect, it } from 'vitest';
import { jsonLogger } from '../logging/json-logger.js';
import { REQUEST_ID } from '../context/request-id.js';
import type { Middleware } from '../context/middleware.js';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import { createApp } from './create-app.js';

describe('ctx.log', () => {
  it('binds the request: method, path, route template and request id', async () => {
    const lines: string[] = [];
    const setId: Middleware = (ctx, next) => {
      ctx.set(REQUEST_ID, 'req-1');
      return next();
    };
    const posts = defineController({
      name: 'Posts',
      prefix: '/posts',
      routes: () => ({
        one: get('/:id', (ctx) => {
          ctx.log.info({ postId: ctx.params.id }, 'post read');
          return { id: ctx.params.id };
        }),
      }),
    });
    const app = await createApp(defineModule({ name: 'M', controllers: [posts] }), { logger: jsonLogger({ write: (line) => lines.push(line) }), middleware: [setId] });
    await app.request('/posts/7?secret=x');
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 'info', msg: 'post read', method: 'GET', path: '/posts/7', route: 'GET /posts/:id', requestId: 'req-1', postId: '7' });
    expect(lines[0], 'the query string stays out of the bindings').not.toContain('secret');
  });

  it('reports a 500 through the request logger, so the error line carries the request', async () => {
    const lines: string[] = [];
    const broken = defineController({ name: 'Broken', routes: () => ({ fail: get('/fail', () => { throw new Error('boom'); }) }) });
    const app = await createApp(defineModule({ name: 'M', controllers: [broken] }), { logger: jsonLogger({ write: (line) => lines.push(line) }) });
    expect((await app.request('/fail')).status).toBe(500);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ level: 'error', msg: 'Unhandled error while serving a request', route: 'GET /fail', err: { message: 'boom' } });
  });
});
