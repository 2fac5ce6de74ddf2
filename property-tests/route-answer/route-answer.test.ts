import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, del, get, HttpException, post, put, silentLogger, withHeaders, type Answer, type App, type AppOptions, type Guard, type Interceptor, type Middleware, type RequestContext } from '../../lib/index.js';
import { generalDispatchOf, incomingFromRequest, toResponse } from '../../lib/internal.js';

// Each route is answered by a function built for it at createApp (lib/app/dispatch.ts, `serve`),
// which `app.handle` reaches after routing first. The general walk (context, middleware, router,
// pipeline) is kept as the reference: random route tables, app options and requests go through
// both, and every answer (status, headers, body) and every response observer's event must agree.

type GuardKind = 'allow' | 'deny' | 'throw' | 'async-allow' | 'async-deny';
type HandlerKind = 'value' | 'async' | 'undefined' | 'throw-http' | 'throw-error' | 'response';
type MiddlewareKind = 'pass' | 'header' | 'early' | 'peek' | 'throw';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface RouteSpec {
  readonly method: Method;
  readonly segments: readonly string[];
  readonly guards: readonly GuardKind[];
  readonly interceptor: boolean;
  readonly params: boolean;
  readonly query: boolean;
  readonly body: boolean;
  readonly handler: HandlerKind;
}

interface AppSpec {
  readonly routes: readonly RouteSpec[];
  readonly middleware: readonly MiddlewareKind[];
  readonly observe: boolean;
  readonly notFound: boolean;
}

interface RequestSpec {
  readonly method: string;
  readonly path: string;
  readonly body: string | undefined;
}

const guardClasses: Record<GuardKind, new () => Guard> = {
  allow: class implements Guard {
    canActivate() {
      return true;
    }
  },
  deny: class implements Guard {
    canActivate() {
      return false;
    }
  },
  throw: class implements Guard {
    canActivate(): boolean {
      throw new HttpException(401, 'Who are you?');
    }
  },
  'async-allow': class implements Guard {
    async canActivate() {
      return true;
    }
  },
  'async-deny': class implements Guard {
    async canActivate() {
      return false;
    }
  },
};

class Envelope implements Interceptor {
  async intercept(_ctx: RequestContext, next: () => Promise<unknown>) {
    return { enveloped: await next() };
  }
}

function handlerOf(kind: HandlerKind): (ctx: RequestContext) => unknown {
  const seen = (ctx: RequestContext) => ({ method: ctx.method, path: ctx.path, params: ctx.params, query: ctx.query, body: ctx.body ?? null, route: ctx.route?.path ?? null });
  switch (kind) {
    case 'value':
      return seen;
    case 'async':
      return async (ctx) => seen(ctx);
    case 'undefined':
      return () => undefined;
    case 'throw-http':
      return () => {
        throw new HttpException(418, 'A teapot.');
      };
    case 'throw-error':
      return () => {
        throw new Error('boom');
      };
    case 'response':
      return (ctx) => new Response(`raw ${ctx.path}`, { status: 202, headers: { 'x-raw': String(ctx.params.p1 ?? '-') } });
  }
}

function middlewareOf(kind: MiddlewareKind, index: number): Middleware {
  switch (kind) {
    case 'pass':
      return (_ctx, next) => next();
    case 'header':
      return async (_ctx, next) => withHeaders(await next(), { [`x-mw-${index}`]: 'after' });
    case 'early':
      return (ctx, next) => (ctx.path.includes('/b') ? new Response('early', { status: 203 }) : next());
    case 'peek':
      // What the middleware sees before and after routing must not depend on which walk ran.
      return async (ctx, next) => {
        const before = JSON.stringify({ params: ctx.params, route: ctx.route?.path ?? null });
        const answer = await next();
        return withHeaders(answer, { [`x-peek-${index}`]: `${before} ${JSON.stringify({ params: ctx.params, route: ctx.route?.path ?? null })}` });
      };
    case 'throw':
      return (ctx, next) => {
        if (ctx.path.includes('/7')) throw new Error('middleware failed');
        return next();
      };
  }
}

const paramName = (position: number) => `p${position}`;
const pathOf = (segments: readonly string[]) => `/${segments.map((segment, i) => (segment === ':' ? `:${paramName(i)}` : segment)).join('/')}`;

async function buildApp(spec: AppSpec, events: string[]): Promise<App> {
  const seenShapes = new Set<string>();
  const routes: Record<string, unknown> = {};
  spec.routes.forEach((route, i) => {
    const shape = `${route.method} ${route.segments.join('/')}`;
    if (seenShapes.has(shape)) return;
    seenShapes.add(shape);
    const path = pathOf(route.segments);
    const names = route.segments.flatMap((segment, position) => (segment === ':' ? [paramName(position)] : []));
    const options = {
      guards: route.guards.map((kind) => guardClasses[kind]),
      interceptors: route.interceptor ? [Envelope] : [],
      ...(route.params && names.length > 0 ? { params: z.object(Object.fromEntries(names.map((name) => [name, z.string().regex(/^[0-9]+$/).transform(Number)]))) } : {}),
      ...(route.query ? { query: z.object({ n: z.coerce.number().int().optional() }) } : {}),
      ...(route.body && route.method !== 'GET' ? { body: z.object({ t: z.string() }) } : {}),
    };
    const helper = { GET: get, POST: post, PUT: put, DELETE: del }[route.method] as typeof post;
    routes[`r${i}`] = helper(path, options as Parameters<typeof post>[1], handlerOf(route.handler) as never);
  });
  const controller = defineController({ name: 'Random', routes: () => routes as never });
  const options: AppOptions = {
    logger: silentLogger,
    middleware: spec.middleware.map(middlewareOf),
    ...(spec.observe ? { onResponse: [(event) => events.push(`${event.status} ${event.method} ${event.path} ${event.ctx?.route?.path ?? '-'}`)] } : {}),
    ...(spec.notFound ? { notFound: (ctx) => new Response(`nothing at ${ctx.path}`, { status: 404, headers: { 'x-not-found': '1' } }) } : {}),
  };
  return createApp(defineModule({ name: 'RandomModule', controllers: [controller] }), options);
}

async function answered(serve: (incoming: ReturnType<typeof incomingFromRequest>, reply: (answer: Answer) => void) => void, request: RequestSpec): Promise<string> {
  const init: RequestInit = { method: request.method, ...(request.body === undefined ? {} : { body: request.body, headers: { 'content-type': 'application/json' } }) };
  const answer = await new Promise<Answer>((resolve) => serve(incomingFromRequest(new Request(`http://localhost${request.path}`, init)), resolve));
  const response = toResponse(answer);
  const headers = [...response.headers].map(([name, value]) => `${name}: ${value}`).sort();
  return JSON.stringify({ status: response.status, headers, body: await response.text() });
}

const segment = fc.constantFrom('a', 'b', ':');
const routeSpec: fc.Arbitrary<RouteSpec> = fc.record({
  method: fc.constantFrom<Method>('GET', 'POST', 'PUT', 'DELETE'),
  segments: fc.array(segment, { minLength: 1, maxLength: 3 }),
  guards: fc.array(fc.constantFrom<GuardKind>('allow', 'deny', 'throw', 'async-allow', 'async-deny'), { maxLength: 2 }),
  interceptor: fc.boolean(),
  params: fc.boolean(),
  query: fc.boolean(),
  body: fc.boolean(),
  handler: fc.constantFrom<HandlerKind>('value', 'async', 'undefined', 'throw-http', 'throw-error', 'response'),
});
const appSpec: fc.Arbitrary<AppSpec> = fc.record({
  routes: fc.array(routeSpec, { minLength: 1, maxLength: 6 }),
  middleware: fc.array(fc.constantFrom<MiddlewareKind>('pass', 'header', 'early', 'peek', 'throw'), { maxLength: 2 }),
  observe: fc.boolean(),
  notFound: fc.boolean(),
});
const requestSpec: fc.Arbitrary<RequestSpec> = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
  path: fc
    .tuple(fc.array(fc.constantFrom('a', 'b', '7', 'x', '%61', '%zz', ''), { maxLength: 3 }), fc.boolean(), fc.constantFrom('', '?n=3', '?n=abc', '?n=1&n=2'))
    .map(([parts, slash, query]) => `/${parts.join('/')}${slash && parts.length > 0 ? '/' : ''}${query}`),
  body: fc.constantFrom(undefined, '{"t":"hi"}', '{"t":5}', 'not json'),
}).map((request) => (request.method === 'GET' || request.method === 'HEAD' ? { ...request, body: undefined } : request));

const query = fc.constantFrom('', '?n=3', '?n=abc', '?n=1&n=2');
const body = fc.constantFrom(undefined, '{"t":"hi"}', '{"t":5}', 'not json');
/** A request for one of the app's routes (its path with parameter values, its method or HEAD for GET), so that most requests are routed. */
function routedRequest(spec: AppSpec): fc.Arbitrary<RequestSpec> {
  return fc
    .record({
      route: fc.constantFrom(...spec.routes),
      values: fc.array(fc.constantFrom('7', 'x', '%61', '12'), { minLength: 3, maxLength: 3 }),
      head: fc.boolean(),
      slash: fc.boolean(),
      query,
      body,
    })
    .map(({ route, values, head, slash, query, body }) => {
      const path = `/${route.segments.map((segment, i) => (segment === ':' ? (values[i] as string) : segment)).join('/')}${slash ? '/' : ''}${query}`;
      const method = route.method === 'GET' && head ? 'HEAD' : route.method;
      return { method, path, body: method === 'GET' || method === 'HEAD' ? undefined : body };
    });
}

describe('each route answered by the function built for it', () => {
  it('answers every request as the general walk does: status, headers, body, and what the observers saw', async () => {
    await fc.assert(
      fc.asyncProperty(
        appSpec.chain((spec) => fc.tuple(fc.constant(spec), fc.array(fc.oneof(routedRequest(spec), requestSpec), { minLength: 1, maxLength: 12 }))),
        async ([spec, requests]) => {
        const specialisedEvents: string[] = [];
        const generalEvents: string[] = [];
        const specialisedApp = await buildApp(spec, specialisedEvents);
        const generalApp = await buildApp(spec, generalEvents);
        const general = generalDispatchOf(generalApp);
        if (general === undefined) throw new Error('createApp recorded no general walk');
        for (const request of requests) {
          const viaRoute = await answered(specialisedApp.handle, request);
          const viaGeneral = await answered(general, request);
          expect(viaRoute, `${request.method} ${request.path} on ${JSON.stringify(spec)}`).toBe(viaGeneral);
        }
        expect(specialisedEvents, 'the response observers saw the same events').toEqual(generalEvents);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is not the general walk: a routed request never reaches the router twice', async () => {
    const app = await buildApp({ routes: [{ method: 'GET', segments: ['a', ':'], guards: [], interceptor: false, params: false, query: false, body: false, handler: 'value' }], middleware: ['peek'], observe: false, notFound: false }, []);
    const answer = JSON.parse(await answered(app.handle, { method: 'GET', path: '/a/7', body: undefined })) as { status: number; headers: string[] };
    expect(answer.status, 'the route answered').toBe(200);
    expect(answer.headers, 'the middleware saw the context unrouted before next() and routed after').toContain('x-peek-0: {"params":{},"route":null} {"params":{"p1":"7"},"route":"/a/:p1"}');
  });
});
