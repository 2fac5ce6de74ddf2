// One call of a typed client, as HTTP: the URL from a path template and its parameters, the
// query string, the JSON body, the answer read back. Shared by createClient and createFetchClient,
// and free of run-time imports, so a browser bundle of the type-only client carries this file and
// nothing of the server.
import type { ClientAnswer } from './client-types.js';

/**
 * Where and how a client sends its requests.
 *
 * @example
 * createFetchClient<Api>({ baseUrl: 'https://api.example.com', headers: { authorization: `Bearer ${token}` } });
 */
export interface ClientOptions {
  readonly baseUrl: string;
  /** Sends a request; default the global `fetch`. `(request) => app.fetch(request)` calls an app in process. */
  readonly fetch?: (request: Request) => Response | Promise<Response>;
  /** Headers sent with every request (a call's own `headers` win). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The WebSocket class `socket` calls use; default the global one (browsers, Bun, Deno, Node 22+). */
  readonly WebSocket?: typeof WebSocket;
}

/** A call's input as the wire sees it (the typed clients narrow it per route). */
export interface WireInput {
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  readonly query?: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** The options, read once: the base URL without a trailing slash and the function that sends. */
export interface Connection {
  readonly base: string;
  readonly send: (request: Request) => Response | Promise<Response>;
  readonly headers: Readonly<Record<string, string>> | undefined;
  readonly WebSocket: typeof WebSocket | undefined;
}

/**
 * Reads a client's options.
 *
 * @example
 * const connection = connect('http://localhost:3000');
 */
export function connect(options: string | ClientOptions): Connection {
  const settings: ClientOptions = typeof options === 'string' ? { baseUrl: options } : options;
  return { base: settings.baseUrl.replace(/\/+$/, ''), send: settings.fetch ?? ((request: Request) => fetch(request)), headers: settings.headers, WebSocket: settings.WebSocket };
}

const NO_BODY_STATUSES = new Set([204, 205, 304]);

/**
 * A path template with its parameters filled in, each URL-encoded (a `*` wildcard keeps its
 * slashes). `missing` makes the error for a parameter the input lacks.
 *
 * @example
 * fillPath('/posts/:id', { id: 7 }, (name) => new TypeError(name)); // '/posts/7'
 */
export function fillPath(path: string, params: WireInput['params'], missing: (name: string) => Error): string {
  return path
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':') && segment !== '*') return segment;
      const name = segment === '*' ? '*' : segment.slice(1);
      const value = params?.[name];
      if (value === undefined) throw missing(name);
      return segment === '*' ? String(value).split('/').map(encodeURIComponent).join('/') : encodeURIComponent(String(value));
    })
    .join('/');
}

/**
 * The query string the server's schemas read back: repeated keys for arrays, strings for scalars.
 *
 * @example
 * queryString({ tag: ['a', 'b'] }); // '?tag=a&tag=b'
 */
export function queryString(query: WireInput['query']): string {
  if (query === undefined) return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(key, item instanceof Date ? item.toISOString() : String(item));
  }
  const text = search.toString();
  return text === '' ? '' : `?${text}`;
}

async function readValue(response: Response, method: string): Promise<unknown> {
  if (NO_BODY_STATUSES.has(response.status) || method === 'HEAD') return undefined;
  const type = response.headers.get('content-type') ?? '';
  const text = await response.text();
  return /[/+]json\b/i.test(type) && text !== '' ? (JSON.parse(text) as unknown) : text;
}

/**
 * Sends one call to `path` (already filled) and reads the answer: `{ ok: true, data }` or
 * `{ ok: false, problem }`, never a throw for an HTTP error status. `response` is left unread.
 *
 * @example
 * const answer = await sendCall(connect(base), 'GET', '/posts/7', {});
 */
export async function sendCall(connection: Connection, method: string, path: string, input: WireInput): Promise<ClientAnswer<unknown>> {
  const headers: Record<string, string> = { accept: 'application/json', ...connection.headers, ...input.headers };
  let body: string | undefined;
  if (input.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input.body);
  }
  const response = await connection.send(new Request(`${connection.base}${path}${queryString(input.query)}`, { method, headers, body }));
  const value = await readValue(response.clone(), method);
  const { status } = response;
  if (response.ok) return { ok: true, status, data: value, response };
  const problem = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : { type: 'about:blank', title: response.statusText, status, detail: value };
  return { ok: false, status, problem: problem as never, response };
}
