// Run by Bun (test/runtimes/bun-native-routes.test.ts starts it): bunServer hands the route table
// to Bun.serve's native `routes`, and every request must be answered exactly as the same app
// answers it behind a plain fetch handler (toFetchHandler: the request view, Tessera's router and
// the general walk, all in JavaScript), both over the wire, so Bun's own URL handling is the same
// on both sides.
// Random route tables and requests, compared on status, the headers that carry meaning and body;
// the native handlers are counted, so a run where Bun never routed anything fails.
import fc from 'fast-check';
import { createApp, defineController, defineModule, del, get, post, silentLogger, type App } from '../../lib/index.js';
import { bunServer, toFetchHandler } from '../../lib/fetch.js';

declare const Bun: { serve(options: Record<string, unknown>): { readonly port: number; stop(): Promise<void> } };

// Counts the calls of the native handlers bunServer gives Bun (the app never sees this).
let nativeCalls = 0;
let nativeTables = 0;
const serve = Bun.serve.bind(Bun);
Bun.serve = (options: Record<string, unknown>) => {
  const routes = options.routes as Record<string, Record<string, (...args: unknown[]) => unknown>> | undefined;
  if (routes !== undefined) {
    nativeTables++;
    for (const methods of Object.values(routes)) {
      for (const [method, handler] of Object.entries(methods)) {
        methods[method] = (...args: unknown[]) => {
          nativeCalls++;
          return handler(...args);
        };
      }
    }
  }
  return serve(options);
};

interface RouteSpec {
  readonly method: 'GET' | 'POST' | 'DELETE';
  readonly segments: readonly string[];
}

const paramName = (position: number) => `p${position}`;
const pathOf = (segments: readonly string[]) => `/${segments.map((segment, i) => (segment === ':' ? `:${paramName(i)}` : segment)).join('/')}`;

async function buildApp(routes: readonly RouteSpec[]): Promise<App> {
  const shapes = new Set<string>();
  const table: Record<string, unknown> = {};
  routes.forEach((route, i) => {
    const shape = `${route.method} ${route.segments.join('/')}`;
    if (shapes.has(shape)) return;
    shapes.add(shape);
    const path = pathOf(route.segments);
    const helper = { GET: get, POST: post, DELETE: del }[route.method] as typeof get;
    table[`r${i}`] = helper(path, (ctx) => ({ route: `${route.method} ${path}`, method: ctx.method, params: ctx.params, path: ctx.path }));
  });
  const controller = defineController({ name: 'Random', routes: () => table as never });
  return createApp(defineModule({ name: 'RandomModule', controllers: [controller] }), { logger: silentLogger, server: bunServer });
}

async function summary(response: Response): Promise<string> {
  const kept = ['content-type', 'allow'].map((name) => `${name}=${response.headers.get(name)}`);
  return JSON.stringify({ status: response.status, headers: kept, body: await response.text() });
}

const segment = fc.constantFrom('a', 'b', 'c', ':', '*');
const routeSpec = fc.record({
  method: fc.constantFrom<'GET' | 'POST' | 'DELETE'>('GET', 'POST', 'DELETE'),
  // A wildcard only last, and rarely: it turns native routing off for its method.
  segments: fc.array(segment, { minLength: 1, maxLength: 3 }).filter((segments) => !segments.slice(0, -1).includes('*')).map((segments) => (segments.at(-1) === '*' && Math.random() < 0.7 ? segments.slice(0, -1).concat('a') : segments)),
});
const request = fc.record({
  method: fc.constantFrom('GET', 'GET', 'HEAD', 'POST', 'DELETE', 'OPTIONS', 'PATCH', 'PURGE'),
  parts: fc.array(fc.constantFrom('a', 'b', 'c', '7', 'x+y', 'a;b', '%61', '%zz', '%2F', '', '.'), { maxLength: 4 }),
  slash: fc.boolean(),
  query: fc.constantFrom('', '?q=1', '?q=%zz', '?q=a%20b', '?q=a\\b'),
});

const value = fc.constantFrom('7', 'x+y', 'a;b', '%61', '%zz', '%2F', 'b');
/** A request for one of the routes (parameters filled in), so that most requests are Bun's to route. */
const routed = (routes: readonly RouteSpec[]) =>
  fc.record({ route: fc.constantFrom(...routes), values: fc.array(value, { minLength: 3, maxLength: 3 }), head: fc.boolean(), slash: fc.boolean(), query: request.map((r) => r.query) }).map(({ route, values, head, slash, query }) => ({
    method: route.method === 'GET' && head ? 'HEAD' : route.method,
    parts: route.segments.map((segment, i) => (segment === ':' ? (values[i] as string) : segment === '*' ? 'rest' : segment)),
    slash,
    query,
  }));

let compared = 0;
await fc.assert(
  fc.asyncProperty(fc.array(routeSpec, { minLength: 1, maxLength: 8 }).chain((routes) => fc.tuple(fc.constant(routes), fc.array(fc.oneof(routed(routes), request), { minLength: 1, maxLength: 20 }))), async ([routes, requests]) => {
    const app = await buildApp(routes);
    const server = await app.listen(0, '127.0.0.1');
    const plain = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: toFetchHandler(app) });
    const plainUrl = `http://127.0.0.1:${plain.port}`;
    try {
      for (const { method, parts, slash, query } of requests) {
        const path = `/${parts.join('/')}${slash && parts.length > 0 ? '/' : ''}${query}`;
        const overTheWire = await summary(await fetch(`${server.url}${path}`, { method }));
        const viaFetchHandler = await summary(await fetch(`${plainUrl}${path}`, { method }));
        if (overTheWire !== viaFetchHandler) throw new Error(`${method} ${path}\n  routes: ${routes.map((r) => `${r.method} ${pathOf(r.segments)}`).join(', ')}\n  native routes: ${overTheWire}\n  fetch handler: ${viaFetchHandler}`);
        compared++;
      }
    } finally {
      await Promise.all([server.close(), plain.stop()]);
    }
  }),
  { numRuns: Number(process.env.RUNS ?? 120) },
);

// A route added after listen (addRawRoute) makes the table Bun holds stale: every request then
// goes through the fetch handler, so the new static route wins over the native parameter route.
{
  const app = await buildApp([{ method: 'GET', segments: ['a', ':'] }]);
  const server = await app.listen(0, '127.0.0.1');
  try {
    const before = (await (await fetch(`${server.url}/a/b`)).json()) as { route: string };
    app.addRawRoute('GET', '/a/b', () => new Response('added later'));
    const after = await (await fetch(`${server.url}/a/b`)).text();
    if (before.route !== 'GET /a/:p1' || after !== 'added later') throw new Error(`a route added after listen: before ${JSON.stringify(before)}, after ${after}`);
  } finally {
    await server.close();
  }
}
console.log(JSON.stringify({ compared, nativeTables, nativeCalls }));
