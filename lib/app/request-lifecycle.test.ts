import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestLogger } from '../../test/support/test-logger.js';
import { defineModule } from '../modules/module.js';
import { ForbiddenException, HttpException, UnauthorizedException } from '../http/http-exception.js';
import { jsonAnswer } from '../http/answer.js';
import { headerOf, withHeaders } from '../http/with-headers.js';
import { defineController } from '../routing/controller.js';
import { get, post } from '../routing/route.js';
import { createApp, type AppOptions } from './create-app.js';
import type { Guard } from '../context/guard.js';
import type { Middleware } from '../context/middleware.js';

class DenyGuard implements Guard {
  canActivate(): boolean {
    throw new UnauthorizedException('Sign in first');
  }
}

class PostLockedError extends Error {}

const tag: Middleware = async (_ctx, next) => withHeaders(await next(), { 'x-seen-by': 'middleware' });

async function appWith(options: AppOptions = {}) {
  const { logger, log } = createTestLogger();
  const controller = defineController({
    name: 'Things',
    prefix: '/things',
    routes: () => ({
      list: get('/', () => [1, 2]),
      create: post('/', { body: z.object({ name: z.string() }), bodyLimit: 1_000 }, (ctx) => ctx.body),
      locked: get('/locked', () => {
        throw new PostLockedError('locked');
      }),
      boom: get('/boom', () => {
        throw new Error('database password=hunter2');
      }),
      guarded: get('/guarded', { guards: [DenyGuard] }, () => 'never'),
      raw: post('/raw', { bodyLimit: 1_000 }, async (ctx) => ({ bytes: (await ctx.request.arrayBuffer()).byteLength })),
      form: post('/form', { bodyLimit: 1_000 }, async (ctx) => ({ fields: [...(await ctx.request.formData()).keys()] })),
      stream: post('/stream', { bodyLimit: 1_000 }, async (ctx) => {
        let bytes = 0;
        for await (const chunk of ctx.request.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.byteLength;
        return { bytes };
      }),
      route: get('/route', (ctx) => ({ route: ctx.route?.name })),
    }),
  });
  const app = await createApp(defineModule({ name: 'Root', providers: [DenyGuard], controllers: [controller] }), { logger, ...options });
  return { app, log };
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('middleware sees every answer, whatever produced it', () => {
  it.each([
    ['a handler', '/things', {}, 200],
    ['the router (404)', '/nowhere', {}, 404],
    ['the router (405)', '/things', { method: 'DELETE' }, 405],
    ['a guard refusal (401)', '/things/guarded', {}, 401],
    ['validation (400)', '/things', json({ name: 42 }), 400],
    ['the body limit (413)', '/things', json({ name: 'x'.repeat(2_000) }), 413],
    ['the content type (415)', '/things', { method: 'POST', body: 'name=x' }, 415],
    ['a thrown unknown error (500)', '/things/boom', {}, 500],
  ])('%s', async (_what, path, init, status) => {
    const { app } = await appWith({ middleware: [tag] });
    const res = await app.request(path, init as RequestInit);
    expect(res.status).toBe(status);
    expect(res.headers.get('x-seen-by'), `the middleware's header on the ${status}`).toBe('middleware');
  });

  it('keeps the Allow header of a 405 while adding its own', async () => {
    const { app } = await appWith({ middleware: [tag] });
    const res = await app.request('/things', { method: 'DELETE' });
    expect(res.headers.get('allow')).toBe('GET, POST');
  });

  it('can answer early without routing (a preflight on a path that would be 405)', async () => {
    const preflight: Middleware = (ctx, next) => (ctx.method === 'OPTIONS' ? jsonAnswer(204, undefined) : next());
    const { app } = await appWith({ middleware: [preflight, tag] });
    const res = await app.request('/things', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('x-seen-by'), 'inner middleware did not run').toBeNull();
  });

  it('can replace the answer (status and body)', async () => {
    const teapot: Middleware = async (_ctx, next) => ((await next()).status === 404 ? jsonAnswer(418, { tea: true }) : next());
    const { app } = await appWith({ middleware: [teapot] });
    const res = await app.request('/nowhere');
    expect(res.status).toBe(418);
    expect(await res.json()).toEqual({ tea: true });
  });

  it('runs outermost first, sees no route before next() and the matched route after it', async () => {
    const seen: string[] = [];
    const outer: Middleware = async (ctx, next) => {
      seen.push(`outer before, route ${String(ctx.route?.name)}`);
      const answer = await next();
      seen.push(`outer after, route ${String(ctx.route?.name)}`);
      return answer;
    };
    const inner: Middleware = async (_ctx, next) => {
      seen.push('inner');
      return next();
    };
    const { app } = await appWith({ middleware: [outer, inner] });
    await app.request('/things/route');
    expect(seen).toEqual(['outer before, route undefined', 'inner', 'outer after, route route']);
  });

  it('turns a middleware that throws into a problem the outer middleware still sees', async () => {
    const thrower: Middleware = () => {
      throw new ForbiddenException('no');
    };
    const { app } = await appWith({ middleware: [tag, thrower] });
    const res = await app.request('/things');
    expect(res.status).toBe(403);
    expect(res.headers.get('x-seen-by')).toBe('middleware');
  });

  it('refuses a second call of next() (a 500, logged)', async () => {
    const twice: Middleware = async (_ctx, next) => {
      await next();
      return next();
    };
    const { app, log } = await appWith({ middleware: [twice] });
    expect((await app.request('/things')).status).toBe(500);
    expect(String((log.errors[0]?.error as Error | undefined)?.message)).toMatch(/next\(\) twice/);
  });
});

describe('onError and notFound', () => {
  const onError: AppOptions['onError'] = (error) => (error instanceof PostLockedError ? jsonAnswer(423, { locked: true }) : undefined);

  it('maps a domain error to an answer', async () => {
    const { app } = await appWith({ onError });
    const res = await app.request('/things/locked');
    expect(res.status).toBe(423);
    expect(await res.json()).toEqual({ locked: true });
  });

  it('leaves other errors to the default: an HttpException keeps its status, anything else is a bare 500', async () => {
    const { app } = await appWith({ onError });
    expect((await app.request('/things/guarded')).status).toBe(401);
    const boom = await app.request('/things/boom');
    expect(boom.status).toBe(500);
    expect(await boom.text()).not.toMatch(/hunter2/);
  });

  it('falls back to the default answer when onError itself throws, and logs it', async () => {
    const { app, log } = await appWith({
      onError: () => {
        throw new Error('mapper broke');
      },
    });
    expect((await app.request('/things/guarded')).status).toBe(401);
    expect(log.errors.map((e) => e.message)).toContain('onError failed; answering with the default problem');
  });

  it('answers unknown paths with notFound, but a known path with another method still 405', async () => {
    const { app } = await appWith({ notFound: (ctx) => jsonAnswer(404, { nothing: ctx.path }) });
    const res = await app.request('/nowhere');
    expect(await res.json()).toEqual({ nothing: '/nowhere' });
    expect((await app.request('/things', { method: 'DELETE' })).status).toBe(405);
  });

  it('lets middleware see notFound and onError answers', async () => {
    const { app } = await appWith({ middleware: [tag], onError, notFound: () => jsonAnswer(404, {}) });
    expect((await app.request('/nowhere')).headers.get('x-seen-by')).toBe('middleware');
    expect((await app.request('/things/locked')).headers.get('x-seen-by')).toBe('middleware');
  });
});

describe('the body limit applies however the body is read', () => {
  const big = 'x'.repeat(5_000);

  it.each([
    ['arrayBuffer()', '/things/raw', { method: 'POST', body: big }],
    ['formData()', '/things/form', { method: 'POST', body: new URLSearchParams({ field: big }) }],
    ['the body stream', '/things/stream', { method: 'POST', body: big }],
  ])('%s: 413 for 5 000 bytes on a 1 000-byte route', async (_how, path, init) => {
    const { app } = await appWith();
    const res = await app.request(path, init as RequestInit);
    expect(res.status).toBe(413);
  });

  it('a chunked body without Content-Length: 413 once it passes the limit', async () => {
    const { app } = await appWith();
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new Uint8Array(600));
        controller.close();
      },
    });
    const res = await app.request(new Request('http://localhost/things/raw', { method: 'POST', body: chunks, duplex: 'half' } as RequestInit));
    expect(res.status).toBe(413);
  });

  it('a body within the limit reads whole', async () => {
    const { app } = await appWith();
    const res = await app.request('/things/raw', { method: 'POST', body: 'y'.repeat(900) });
    expect(await res.json()).toEqual({ bytes: 900 });
  });
});

describe('app.request', () => {
  it('takes a path, a URL, or a Request', async () => {
    const { app } = await appWith();
    expect(await (await app.request('/things')).json()).toEqual([1, 2]);
    expect((await app.request(new URL('http://example.test/things'))).status).toBe(200);
    expect((await app.request(new Request('http://example.test/things', json({ name: 'a' })))).status).toBe(200);
  });

  it('reads a header of either answer form with headerOf', async () => {
    expect(headerOf(jsonAnswer(200, {}), 'Content-Type')).toBe('application/json');
    expect(headerOf(new Response(null, { headers: { 'x-a': '1' } }), 'X-A')).toBe('1');
  });

  it('keeps HttpException details through the middleware path', async () => {
    const { app } = await appWith({ middleware: [tag] });
    const res = await app.request('/things', json({}));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ issues: expect.any(Array) });
    expect(new HttpException(400, 'x').status).toBe(400);
  });
});
