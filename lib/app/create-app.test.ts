import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  createApp,
  createMetadataKey,
  createStateKey,
  defineController,
  defineModule,
  del,
  get,
  HttpException,
  post,
  put,
  readMetadata,
  type Guard,
  type Interceptor,
  type Logger,
  type RequestContext,
  silentLogger,
  jsonLogger,
} from '../index.js';
import { send } from '../../test/http-helpers.js';

const silent: Logger = silentLogger;

function appWith(routes: Parameters<typeof defineController>[0]['routes'], extra: Partial<Parameters<typeof defineController>[0]> = {}) {
  const controller = defineController({ name: 'TestController', routes, ...extra });
  return defineModule({ name: 'TestModule', controllers: [controller] });
}

describe('results', () => {
  it('sends values as JSON with the route status, undefined as 204, and Responses untouched', async () => {
    const app = await createApp(
      appWith(() => ({
        value: get('/value', () => ({ ok: true })),
        created: post('/created', { status: 201 }, () => 'made'),
        nothing: del('/nothing', () => undefined),
        asyncNothing: del('/async-nothing', async () => undefined),
        raw: get('/raw', () => new Response('plain text', { status: 202, headers: { 'x-raw': '1' } })),
      })),
    );
    const value = await send(app, 'GET', '/value');
    expect([value.status, value.json, value.headers.get('content-type')]).toEqual([200, { ok: true }, 'application/json']);
    const created = await send(app, 'POST', '/created');
    expect([created.status, created.json]).toEqual([201, 'made']);
    for (const path of ['/nothing', '/async-nothing']) {
      const res = await send(app, 'DELETE', path);
      expect([res.status, res.text, res.headers.get('content-type')]).toEqual([204, '', null]);
    }
    const raw = await send(app, 'GET', '/raw');
    expect([raw.status, raw.text, raw.headers.get('x-raw')]).toEqual([202, 'plain text', '1']);
  });

  it('turns thrown HttpExceptions into problem+json with their status, details and headers', async () => {
    const app = await createApp(
      appWith(() => ({
        limited: get('/limited', () => {
          throw new HttpException(429, 'Slow down', { limit: 10 }, { 'retry-after': '3' });
        }),
      })),
      { logger: silent },
    );
    const res = await send(app, 'GET', '/limited');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.json).toEqual({ type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'Slow down', limit: 10 });
  });

  it('hides unexpected errors behind a bare 500 and reports them to the logger', async () => {
    // Request errors go to the request's child logger: this one is its own child.
    const error = vi.fn<Logger['error']>();
    const logger: Logger & { error: typeof error } = { ...silentLogger, error, child: () => logger };
    const app = await createApp(
      appWith(() => ({
        sync: get('/sync', () => {
          throw new Error('database password is hunter2');
        }),
        async: get('/async', async () => {
          throw new TypeError('secret internals');
        }),
      })),
      { logger },
    );
    for (const path of ['/sync', '/async']) {
      const res = await send(app, 'GET', path);
      expect(res.status).toBe(500);
      expect(res.text).not.toMatch(/hunter2|secret|internals|TypeError|stack/);
      expect(res.json).toMatchObject({ status: 500, title: 'Internal Server Error' });
    }
    expect(logger.error).toHaveBeenCalledTimes(2);
  });
});

describe('body parsing', () => {
  const Item = z.object({ name: z.string() });
  const make = (bodyLimit?: number) =>
    createApp(appWith(() => ({ create: post('/items', { body: Item, status: 201 }, (ctx) => ctx.body) })), { bodyLimit, logger: silent });

  it('validates before the handler runs', async () => {
    const handler = vi.fn((ctx: { body: unknown }) => ctx.body);
    const app = await createApp(appWith(() => ({ create: post('/items', { body: Item }, handler) })));
    const res = await send(app, 'POST', '/items', { json: { name: 3 } });
    expect(res.status).toBe(400);
    expect(handler).not.toHaveBeenCalled();
    expect((res.json as { issues: unknown[] }).issues).toHaveLength(1);
  });

  it('answers 400 for malformed JSON and invalid UTF-8, and 400 (schema) for a missing body', async () => {
    const app = await make();
    const malformed = await send(app, 'POST', '/items', { body: '{"name": ', headers: { 'content-type': 'application/json' } });
    expect([malformed.status, (malformed.json as { detail: string }).detail]).toEqual([400, 'Request body is not valid JSON.']);
    const badUtf8 = await send(app, 'POST', '/items', { body: new Uint8Array([0x7b, 0xff, 0x7d]), headers: { 'content-type': 'application/json' } });
    expect(badUtf8.status).toBe(400);
    const missing = await send(app, 'POST', '/items');
    expect(missing.status).toBe(400);
    expect((missing.json as { issues: unknown[] }).issues.length).toBeGreaterThan(0);
  });

  it('answers 415 for a non-JSON content type, accepting +json types and charset parameters', async () => {
    const app = await make();
    const form = await send(app, 'POST', '/items', { body: 'name=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.status).toBe(415);
    const untyped = await send(app, 'POST', '/items', { body: '{"name":"x"}', headers: { 'content-type': '' } });
    expect(untyped.status).toBe(415);
    const merge = await send(app, 'POST', '/items', { body: '{"name":"x"}', headers: { 'content-type': 'application/merge-patch+json; charset=utf-8' } });
    expect(merge.status).toBe(201);
  });

  it('answers 413 for a body over the limit, by Content-Length or by counting a stream', async () => {
    const app = await make(32);
    const big = await send(app, 'POST', '/items', { json: { name: 'x'.repeat(100) } });
    expect(big.status).toBe(413);
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new TextEncoder().encode('{"name":"' + 'y'.repeat(20)));
        if (pulled > 1000) controller.close();
      },
    });
    const response = await app.fetch(
      new Request('http://localhost/items', { method: 'POST', body: stream, headers: { 'content-type': 'application/json' }, duplex: 'half' } as RequestInit),
    );
    expect(response.status).toBe(413);
    // Reading stopped at the limit instead of buffering the whole stream.
    expect(pulled).toBeLessThan(10);
    const fine = await send(app, 'POST', '/items', { json: { name: 'ok' } });
    expect(fine.status).toBe(201);
  });
});

describe('query', () => {
  it('passes the parsed query without a schema and validates it with one', async () => {
    const app = await createApp(
      appWith(() => ({
        raw: get('/raw', (ctx) => ctx.query),
        typed: get('/typed', { query: z.object({ page: z.coerce.number().int().min(1), tag: z.array(z.string()).optional() }) }, (ctx) => ({
          page: ctx.query.page,
          tags: ctx.query.tag ?? [],
        })),
      })),
    );
    expect((await send(app, 'GET', '/raw?a=1&b=2&b=3')).json).toEqual({ a: '1', b: ['2', '3'] });
    expect((await send(app, 'GET', '/typed?page=2&tag=x&tag=y')).json).toEqual({ page: 2, tags: ['x', 'y'] });
    const bad = await send(app, 'GET', '/typed?page=0');
    expect(bad.status).toBe(400);
    expect((bad.json as { detail: string }).detail).toBe('Query failed validation.');
  });
});

describe('paths', () => {
  it('decodes params, answers 400 for malformed escapes, treats one trailing slash as absent, supports wildcards', async () => {
    const app = await createApp(
      appWith(() => ({
        show: get('/files/:name', (ctx) => ctx.params),
        rest: get('/static/*', (ctx) => ctx.params),
        list: get('/files', () => 'list'),
      })),
    );
    expect((await send(app, 'GET', '/files/a%2Fb%20c')).json).toEqual({ name: 'a/b c' });
    expect((await send(app, 'GET', '/files/%E0%A4%A')).status).toBe(400);
    expect((await send(app, 'GET', '/files/')).json).toBe('list');
    expect((await send(app, 'GET', '/static/css/site.css')).json).toEqual({ '*': 'css/site.css' });
    expect((await send(app, 'GET', '/static')).json).toEqual({ '*': '' });
  });

  it('refuses duplicate routes at boot, even with different parameter names', async () => {
    const module = appWith(() => ({ a: get('/x/:id', () => 1), b: get('/x/:slug', () => 2) }));
    await expect(createApp(module)).rejects.toThrow(/Duplicate route: GET \/x\/:slug conflicts with GET \/x\/:id/);
  });

  it('answers HEAD from GET routes without a body', async () => {
    const app = await createApp(appWith(() => ({ list: get('/items', () => [1, 2]) })));
    const res = await app.fetch(new Request('http://localhost/items', { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('answers 405 for unknown methods, listing the declared ones', async () => {
    const app = await createApp(appWith(() => ({ list: get('/items', () => []), replace: put('/items', () => []) })));
    const res = await app.fetch(new Request('http://localhost/items', { method: 'PROPFIND' }));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, PUT');
  });
});

describe('guards and interceptors', () => {
  const order: string[] = [];
  const named = (name: string, result: boolean | (() => never) = true) =>
    class implements Guard {
      static readonly id = name;
      canActivate(): boolean {
        order.push(name);
        if (typeof result === 'function') return result();
        return result;
      }
    };

  it('runs app, module, controller and route guards in that order', async () => {
    order.length = 0;
    const AppGuard = named('app');
    const ModuleGuard = named('module');
    const ControllerGuard = named('controller');
    const RouteGuard = named('route');
    const controller = defineController({
      name: 'C',
      guards: [ControllerGuard],
      routes: () => ({ x: get('/x', { guards: [RouteGuard] }, () => order.push('handler')) }),
    });
    const module = defineModule({ name: 'M', controllers: [controller], providers: [ModuleGuard], appGuards: [ModuleGuard] });
    const app = await createApp(module, { guards: [AppGuard] });
    expect((await send(app, 'GET', '/x')).status).toBe(200);
    expect(order).toEqual(['app', 'module', 'controller', 'route', 'handler']);
  });

  it('answers 403 when a guard returns false and keeps a thrown exception status; later stages do not run', async () => {
    const Deny = named('deny', false);
    const Throw = named('throw', () => {
      throw new HttpException(401, 'Who are you?');
    });
    const handler = vi.fn(() => 'no');
    const Body = z.object({ a: z.string() });
    const app = await createApp(
      appWith(() => ({
        denied: post('/denied', { guards: [Deny], body: Body }, handler),
        thrown: get('/thrown', { guards: [Throw] }, handler),
      })),
    );
    const denied = await send(app, 'POST', '/denied', { json: { wrong: true } });
    expect(denied.status).toBe(403);
    const thrown = await send(app, 'GET', '/thrown');
    expect([thrown.status, (thrown.json as { detail: string }).detail]).toEqual([401, 'Who are you?']);
    expect(handler).not.toHaveBeenCalled();
  });

  it('wraps handlers in interceptors, outermost first, which may transform results and errors', async () => {
    class Envelope implements Interceptor {
      async intercept(_ctx: RequestContext, next: () => Promise<unknown>) {
        return { data: await next() };
      }
    }
    class Recover implements Interceptor {
      async intercept(_ctx: RequestContext, next: () => Promise<unknown>) {
        try {
          return await next();
        } catch {
          return 'recovered';
        }
      }
    }
    const app = await createApp(
      appWith(() => ({
        ok: get('/ok', () => 42),
        failing: get('/failing', { interceptors: [Recover] }, () => {
          throw new Error('boom');
        }),
      }), { interceptors: [Envelope] }),
    );
    expect((await send(app, 'GET', '/ok')).json).toEqual({ data: 42 });
    expect((await send(app, 'GET', '/failing')).json).toEqual({ data: 'recovered' });
  });

  it('shares the context: a guard attaches state the handler reads, and metadata is readable', async () => {
    const USER = createStateKey<string>('user');
    const ROLE = createMetadataKey<string>('test:role');
    class Attach implements Guard {
      canActivate(ctx: RequestContext) {
        ctx.set(USER, `${ctx.header('x-user')}:${readMetadata(ctx.route!.metadata, ROLE)}`);
        return true;
      }
    }
    const app = await createApp(appWith(() => ({ me: get('/me', { guards: [Attach], metadata: [ROLE.with('admin')] }, (ctx) => ctx.get(USER)) })));
    expect((await send(app, 'GET', '/me', { headers: { 'X-User': 'ada' } })).json).toBe('ada:admin');
  });
});

describe('access log', () => {
  it('records method, path without query, route, status and duration for every answer, never headers', async () => {
    const lines: string[] = [];
    const app = await createApp(appWith(() => ({ x: get('/x', () => 'ok') })), { logger: jsonLogger({ write: (line) => lines.push(line) }), accessLog: true });
    await send(app, 'GET', '/x?token=secret-in-query', { headers: { authorization: 'Bearer secret-token' } });
    await send(app, 'GET', '/missing');
    expect(lines, 'one line per request').toHaveLength(2);
    const [first, second] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(first).toMatchObject({ level: 'info', msg: 'request completed', method: 'GET', path: '/x', route: 'GET /x', status: 200 });
    expect(typeof first?.durationMs, 'the duration is a number of ms').toBe('number');
    expect(second).toMatchObject({ method: 'GET', path: '/missing', status: 404 });
    expect(second, 'an unmatched request has no route').not.toHaveProperty('route');
    expect(lines.join('\n')).not.toMatch(/secret/);
  });

  it('is off by default', async () => {
    const lines: string[] = [];
    const app = await createApp(appWith(() => ({ x: get('/x', () => 'ok') })), { logger: jsonLogger({ write: (line) => lines.push(line) }) });
    await send(app, 'GET', '/x');
    expect(lines, 'no access line without accessLog').toEqual([]);
  });
});

describe('mounted routes', () => {
  it('bypass guards', async () => {
    class Deny implements Guard {
      canActivate() {
        return false;
      }
    }
    const app = await createApp(appWith(() => ({ x: get('/x', () => 'ok') })), { guards: [Deny] });
    app.addRawRoute('GET', '/health', () => new Response('up'));
    expect((await send(app, 'GET', '/x')).status).toBe(403);
    expect((await send(app, 'GET', '/health')).text).toBe('up');
  });
});
