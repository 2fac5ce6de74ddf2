import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { z } from 'zod';
import {
  createApp,
  createManualClock,
  defineController,
  defineModule,
  del,
  get,
  HttpException,
  idempotent,
  InMemoryIdempotencyStore,
  post,
  put,
  silentLogger,
  withHeaders,
  type Answer,
  type App,
  type AppOptions,
  type Guard,
  type Interceptor,
  type InterceptorToken,
  type Middleware,
  type RequestContext,
  type Schema,
} from '../../lib/index.js';
import { generalDispatchOf, incomingFromRequest, toResponse } from '../../lib/internal/request-path.js';

// Each route is answered by its responder, built for it at createApp (lib/app/dispatch.ts),
// which `app.handle` reaches after routing first. The general walk (context, middleware, router,
// pipeline) is kept as the reference: random route tables, app options and requests go through
// both, and every answer (status, headers, body) and every response observer's event must agree.
// Routes draw their schemas from zod or valibot (a Standard Schema), synchronous or with an async
// refinement in every slot (params, query, body, response), serialise their response or not, and
// are idempotent() or not: an idempotent route must answer as the same route without it, and
// replay that answer (plus Idempotent-Replayed).

type GuardKind = 'allow' | 'deny' | 'throw' | 'async-allow' | 'async-deny';
type HandlerKind = 'value' | 'async' | 'undefined' | 'throw-http' | 'throw-error' | 'response';
type MiddlewareKind = 'pass' | 'header' | 'early' | 'peek' | 'throw';
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type SchemaLibrary = 'zod' | 'valibot';

interface RouteSpec {
  readonly method: Method;
  readonly segments: readonly string[];
  readonly guards: readonly GuardKind[];
  readonly interceptor: boolean;
  readonly params: boolean;
  readonly query: boolean;
  readonly body: boolean;
  readonly response: boolean;
  readonly serializeResponse: boolean;
  readonly library: SchemaLibrary;
  /** Every schema of the route gets an async refinement (refusing 13 and 'no'). */
  readonly async: boolean;
  readonly idempotent: boolean;
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

/** The value a refinement refuses, in every slot (synchronously or not): so that both of its answers are drawn. */
const UNLUCKY = 13;
const later = async <T>(value: T): Promise<T> => value;

/**
 * The route's schemas, from one library, each with a refinement (refusing 13 and 'no'), synchronous
 * or async: the four variants of a route must answer alike.
 */
function schemasOf(route: RouteSpec, names: readonly string[]): { params?: Schema; query?: Schema; body?: Schema; response?: Schema } {
  const out: { params?: Schema; query?: Schema; body?: Schema; response?: Schema } = {};
  if (route.library === 'zod') {
    const digits = z.string().regex(/^[0-9]+$/).transform(Number);
    const params = z.object(Object.fromEntries(names.map((name) => [name, digits])));
    const query = z.object({ n: z.coerce.number().int().optional(), tag: z.array(z.string()).optional() });
    const body = z.object({ t: z.string() });
    const lucky = (p: Record<string, number>) => !Object.values(p).includes(UNLUCKY);
    if (route.params && names.length > 0) out.params = route.async ? params.refine(async (p) => later(lucky(p)), 'unlucky') : params.refine(lucky, 'unlucky');
    if (route.query) out.query = route.async ? query.refine(async (q) => later(q.n !== UNLUCKY), 'unlucky') : query.refine((q) => q.n !== UNLUCKY, 'unlucky');
    if (route.body && route.method !== 'GET') out.body = route.async ? body.refine(async (b) => later(b.t !== 'no'), 'no') : body.refine((b) => b.t !== 'no', 'no');
    // zod's response serialiser is synchronous; an async response schema comes from valibot.
    if (route.response) out.response = z.object({ method: z.string(), path: z.string() });
    return out;
  }
  const digits = v.pipe(v.string(), v.regex(/^[0-9]+$/), v.transform(Number));
  const params = v.object(Object.fromEntries(names.map((name) => [name, digits])));
  const query = v.object({ n: v.optional(v.pipe(v.string(), v.transform(Number), v.integer())), tag: v.optional(v.array(v.string())) });
  const body = v.object({ t: v.string() });
  const response = v.object({ method: v.string(), path: v.string() });
  const lucky = (p: Record<string, number>) => !Object.values(p).includes(UNLUCKY);
  if (route.params && names.length > 0) out.params = route.async ? v.pipeAsync(params, v.checkAsync(async (p) => later(lucky(p)), 'unlucky')) : v.pipe(params, v.check(lucky, 'unlucky'));
  if (route.query) out.query = route.async ? v.pipeAsync(query, v.checkAsync(async (q) => later(q.n !== UNLUCKY), 'unlucky')) : v.pipe(query, v.check((q) => q.n !== UNLUCKY, 'unlucky'));
  if (route.body && route.method !== 'GET') out.body = route.async ? v.pipeAsync(body, v.checkAsync(async (b) => later(b.t !== 'no'), 'no')) : v.pipe(body, v.check((b) => b.t !== 'no', 'no'));
  // Routes are never at '/', so the check always passes: it only makes the writer asynchronous.
  if (route.response) out.response = route.async ? v.pipeAsync(response, v.checkAsync(async (r) => later(r.path !== '/'), 'root')) : response;
  return out;
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
      // A header idempotent() keeps (KEPT_HEADERS): one it does not keep is, as documented, not replayed.
      return (ctx) => new Response(`raw ${ctx.path}`, { status: 202, headers: { 'content-location': String(ctx.params.p1 ?? '-') } });
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

/** How an app differs from the one its spec describes, to compare the two. */
interface Variant {
  /** false: no route is idempotent(), the reference an idempotent route's answers are compared with. */
  readonly idempotency: boolean;
  /** true: every route's schemas from the other library, and synchronous where they were async and back. */
  readonly otherSchemas: boolean;
}

const AS_DRAWN: Variant = { idempotency: true, otherSchemas: false };

/** The app a spec describes, or a variant of it. Each app has its own idempotency store. */
async function buildApp(spec: AppSpec, events: string[], { idempotency, otherSchemas }: Variant = AS_DRAWN): Promise<App> {
  const store = new InMemoryIdempotencyStore({ clock: createManualClock(Date.parse('2026-11-28T05:00:00Z')) });
  const keyed: InterceptorToken = idempotent({ store, identify: () => 'caller' });
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
      // idempotent() outermost, as documented: it makes the route's answer.
      interceptors: [...(idempotency && route.idempotent ? [keyed] : []), ...(route.interceptor ? [Envelope] : [])],
      serializeResponse: route.serializeResponse,
      ...schemasOf(otherSchemas ? { ...route, library: route.library === 'zod' ? 'valibot' : 'zod', async: !route.async } : route, names),
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

async function answered(dispatch: (incoming: ReturnType<typeof incomingFromRequest>, reply: (answer: Answer) => void) => void, request: RequestSpec, key?: string): Promise<string> {
  const headers: Record<string, string> = key === undefined ? {} : { 'idempotency-key': key };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const init: RequestInit = { method: request.method, headers, ...(request.body === undefined ? {} : { body: request.body }) };
  const answer = await new Promise<Answer>((resolve) => dispatch(incomingFromRequest(new Request(`http://localhost${request.path}`, init)), resolve));
  const response = toResponse(answer);
  const shownHeaders = [...response.headers].map(([name, value]) => `${name}: ${value}`).sort();
  return JSON.stringify({ status: response.status, headers: shownHeaders, body: await response.text() });
}

/**
 * What two schema libraries must agree on: the status, and the body except a 400's issues (each
 * library words its own), of which the title says which part failed.
 */
function alike(shown: string): string {
  const answer = JSON.parse(shown) as { status: number; headers: string[]; body: string };
  // A HEAD request's 400 has no body.
  if (answer.status !== 400 || answer.body === '') return shown;
  return JSON.stringify({ status: 400, headers: answer.headers, title: (JSON.parse(answer.body) as { title?: string }).title });
}

/** An answer as `answered` shows it, without the header that marks a replay. */
function withoutReplayMarker(shown: string): string {
  const answer = JSON.parse(shown) as { status: number; headers: string[]; body: string };
  return JSON.stringify({ ...answer, headers: answer.headers.filter((line) => line !== 'idempotent-replayed: true') });
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
  response: fc.boolean(),
  serializeResponse: fc.boolean(),
  library: fc.constantFrom<SchemaLibrary>('zod', 'valibot'),
  async: fc.boolean(),
  idempotent: fc.boolean(),
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
    .tuple(fc.array(fc.constantFrom('a', 'b', '7', 'x', '%61', '%zz', ''), { maxLength: 3 }), fc.boolean(), fc.constantFrom('', '?n=3', '?n=13', '?n=abc', '?n=1&n=2', '?tag=a'))
    .map(([parts, slash, query]) => `/${parts.join('/')}${slash && parts.length > 0 ? '/' : ''}${query}`),
  body: fc.constantFrom(undefined, '{"t":"hi"}', '{"t":"no"}', '{"t":5}', 'not json'),
}).map((request) => (request.method === 'GET' || request.method === 'HEAD' ? { ...request, body: undefined } : request));

const query = fc.constantFrom('', '?n=3', '?n=13', '?n=abc', '?n=1&n=2', '?tag=a');
const body = fc.constantFrom(undefined, '{"t":"hi"}', '{"t":"no"}', '{"t":5}', 'not json');
/** A request for one of the app's routes (its path with parameter values, its method or HEAD for GET), so that most requests are routed. */
function routedRequest(spec: AppSpec): fc.Arbitrary<RequestSpec> {
  return fc
    .record({
      route: fc.constantFrom(...spec.routes),
      values: fc.array(fc.constantFrom('7', 'x', '%61', '12', '13'), { minLength: 3, maxLength: 3 }),
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
          const withoutIdempotency = await buildApp(spec, [], { idempotency: false, otherSchemas: false });
          const otherSchemas = await buildApp(spec, [], { idempotency: false, otherSchemas: true });
          const general = generalDispatchOf(generalApp);
          if (general === undefined) throw new Error('createApp recorded no general walk');
          for (const [i, request] of requests.entries()) {
            const where = `${request.method} ${request.path} on ${JSON.stringify(spec)}`;
            // A fresh key per request: its first answer is made, the same key again replays it.
            const key = `key-${i}`;
            const viaRoute = await answered(specialisedApp.handle, request, key);
            const viaGeneral = await answered(general, request, key);
            expect(viaRoute, `responder against the general walk: ${where}`).toBe(viaGeneral);
            expect(viaRoute, `idempotent() changed the answer: ${where}`).toBe(await answered(withoutIdempotency.handle, request, key));
            expect(alike(viaRoute), `zod and valibot, sync and async schemas answer differently: ${where}`).toBe(alike(await answered(otherSchemas.handle, request, key)));
            const replayed = await answered(specialisedApp.handle, request, key);
            expect(replayed, `responder against the general walk, replaying: ${where}`).toBe(await answered(general, request, key));
            expect(withoutReplayMarker(replayed), `the replay is not the first answer: ${where}`).toBe(viaRoute);
          }
          expect(specialisedEvents, 'the response observers saw the same events').toEqual(generalEvents);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('is not the general walk: a routed request never reaches the router twice', async () => {
    const app = await buildApp({ routes: [{ method: 'GET', segments: ['a', ':'], guards: [], interceptor: false, params: false, query: false, body: false, response: false, serializeResponse: true, library: 'zod', async: false, idempotent: false, handler: 'value' }], middleware: ['peek'], observe: false, notFound: false }, []);
    const answer = JSON.parse(await answered(app.handle, { method: 'GET', path: '/a/7', body: undefined })) as { status: number; headers: string[] };
    expect(answer.status, 'the route answered').toBe(200);
    expect(answer.headers, 'the middleware saw the context unrouted before next() and routed after').toContain('x-peek-0: {"params":{},"route":null} {"params":{"p1":"7"},"route":"/a/:p1"}');
  });
});
