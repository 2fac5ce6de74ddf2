import { DEFINITION, TesseraError, hasDefinition, joinPaths, type ControllerDefinition, type ControllerInput, type RouteMap } from '../internal.js';
import type { ClassClientOf, ClientOf, ClientOfAll } from './client-types.js';

/**
 * Where and how a client sends its requests.
 *
 * @example
 * createClient(postsController, { baseUrl: 'https://api.example.com', headers: { authorization: `Bearer ${token}` } });
 */
export interface ClientOptions {
  readonly baseUrl: string;
  /** Sends a request; default the global `fetch`. `(request) => app.fetch(request)` calls an app in process. */
  readonly fetch?: (request: Request) => Response | Promise<Response>;
  /** Headers sent with every request (a call's own `headers` win). */
  readonly headers?: Readonly<Record<string, string>>;
}

interface CallInput {
  readonly params?: Readonly<Record<string, string | number>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

/** A controller's routes without its dependencies: placeholders that refuse any use at build time. */
function routesOf(input: ControllerInput): { name: string; prefix: string; routes: RouteMap } {
  const definition = (hasDefinition(input) ? input[DEFINITION]() : input) as ControllerDefinition;
  if (definition?.kind !== 'controller') throw new TesseraError('CLIENT_INVALID', 'createClient takes controllers made by defineController or @Controller.');
  const placeholders = definition.inject.map(
    (_, index) =>
      new Proxy(() => undefined, {
        get: (_target, property) => {
          if (property === 'then') return undefined; // not a thenable, if anything awaits it
          throw new TesseraError('CLIENT_ROUTES', `${definition.name}: building its routes used dependency #${index + 1}; a client builds them without dependencies, so use dependencies inside handlers only.`);
        },
        apply: () => {
          throw new TesseraError('CLIENT_ROUTES', `${definition.name}: building its routes called dependency #${index + 1}.`);
        },
      }),
  );
  return { name: definition.name, prefix: definition.prefix, routes: definition.setup(...(placeholders as never[])).routes };
}

function fillPath(path: string, params: Readonly<Record<string, string | number>> | undefined, where: string): string {
  return path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':') && segment !== '*') return segment;
      const name = segment === '*' ? '*' : segment.slice(1);
      const value = params?.[name];
      if (value === undefined) throw new TesseraError('CLIENT_INPUT', `${where}: path parameter '${name}' is missing.`);
      // A wildcard keeps its slashes; everything else is one segment.
      return segment === '*' ? String(value).split('/').map(encodeURIComponent).join('/') : encodeURIComponent(String(value));
    })
    .join('/');
}

/** The query string the server's schemas read back: repeated keys for arrays, strings for scalars. */
function queryString(query: Readonly<Record<string, unknown>> | undefined): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item instanceof Date ? item.toISOString() : String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

async function readAnswer(response: Response, method: string): Promise<{ ok: boolean; status: number; value: unknown }> {
  const { status } = response;
  if (NO_BODY_STATUSES.has(status) || method === 'HEAD') return { ok: response.ok, status, value: undefined };
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  const value = /[/+]json\b/i.test(type) && text !== '' ? (JSON.parse(text) as unknown) : text;
  return { ok: response.ok, status, value };
}

/**
 * A typed client for controllers made with `defineController`: one method per route name, taking
 * `{ params, query, body, headers }` typed from the route (path parameters required, body and
 * query on their input side) and resolving to `{ ok: true, status, data }` (typed from the
 * response schema, else from the handler's result as JSON) or `{ ok: false, status, problem }`.
 * It never throws for an HTTP error status. Several controllers make one client (route names
 * must then differ). Controllers of the class style work at run time; their types give method
 * names only (parameter decorators do not reach types).
 *
 * The route map is built once, without dependencies: a `routes(...)` function must use its
 * dependencies only inside handlers (it gets placeholders that throw when touched).
 *
 * @example
 * const client = createClient(postsController, { baseUrl: 'http://localhost:3000' });
 * const created = await client.create({ body: { title: 'Hello' } });
 * if (created.ok) console.log(created.data.id);
 */
export function createClient<const C extends ControllerDefinition<RouteMap, string>>(controller: C, options: string | ClientOptions): ClientOf<C>;
export function createClient<const Cs extends readonly ControllerDefinition<RouteMap, string>[]>(controllers: Cs, options: string | ClientOptions): ClientOfAll<Cs>;
export function createClient<C extends abstract new (...args: never[]) => unknown>(controller: C, options: string | ClientOptions): ClassClientOf<C>;
export function createClient(controllers: ControllerInput | readonly ControllerInput[], options: string | ClientOptions): Record<string, (input?: CallInput) => Promise<unknown>> {
  const settings: ClientOptions = typeof options === 'string' ? { baseUrl: options } : options;
  const send = settings.fetch ?? ((request: Request) => fetch(request));
  const base = settings.baseUrl.replace(/\/+$/, '');
  const client: Record<string, (input?: CallInput) => Promise<unknown>> = {};
  for (const controller of Array.isArray(controllers) ? controllers : [controllers]) {
    const { name: controllerName, prefix, routes } = routesOf(controller as ControllerInput);
    for (const [name, route] of Object.entries(routes)) {
      if (name in client) throw new TesseraError('CLIENT_INVALID', `Two controllers name a route '${name}'; give one client per controller, or rename one.`);
      const path = joinPaths(prefix, route.path);
      const where = `${controllerName}.${name}`;
      client[name] = async (input: CallInput = {}) => {
        const headers: Record<string, string> = { accept: 'application/json', ...settings.headers, ...input.headers };
        let body: string | undefined;
        if (input.body !== undefined) {
          headers['content-type'] = 'application/json';
          body = JSON.stringify(input.body);
        }
        const url = `${base}${fillPath(path, input.params, where)}${queryString(input.query)}`;
        const response = await send(new Request(url, { method: route.method, headers, body }));
        const { ok, status, value } = await readAnswer(response.clone(), route.method);
        return ok ? { ok: true, status, data: value, response } : { ok: false, status, problem: typeof value === 'object' && value !== null ? value : { type: 'about:blank', title: response.statusText, status, detail: value }, response };
      };
    }
  }
  return client;
}
