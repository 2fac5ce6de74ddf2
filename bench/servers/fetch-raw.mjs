// Baseline on the fetch runtimes: raw `Bun.serve` or `Deno.serve` with a hand-written dispatcher
// over the web Request, doing the work the frameworks do (JSON answers, zod validation of the
// POST body, the same 50 decoy routes); the fetch twin of raw.mjs.
import { DECOY_ROUTES, decodeParam, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';
import { serveFetch } from './fetch-serve.mjs';

const JSON_HEADERS = { 'content-type': 'application/json' };
const json = (status, value) => new Response(JSON.stringify(value), { status, headers: JSON_HEADERS });
const notFound = () => json(404, { error: 'Not Found' });

/** The path of a request URL (`http://host/path?query`), without parsing the URL. */
function pathOf(url) {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  const q = url.indexOf('?', start);
  return q === -1 ? url.slice(start) : url.slice(start, q);
}

let handler;
if (scenario === 'hello') {
  handler = (request) => {
    const path = pathOf(request.url);
    if (request.method === 'GET' && path.startsWith('/hello/') && path.indexOf('/', 7) === -1 && path.length > 7) {
      const name = decodeParam(path.slice(7));
      return name === undefined ? json(400, { error: 'Bad Request' }) : json(200, { message: `Hello, ${name}!` });
    }
    return notFound();
  };
} else if (scenario === 'create') {
  const { CreatePost } = await import('./schemas.mjs');
  handler = async (request) => {
    if (request.method !== 'POST' || pathOf(request.url) !== '/posts') return notFound();
    if (!(request.headers.get('content-type') ?? '').startsWith('application/json')) return json(415, { error: 'Unsupported Media Type' });
    let body;
    try {
      body = await request.json();
    } catch {
      return json(400, { error: 'Invalid JSON' });
    }
    const parsed = CreatePost.safeParse(body);
    if (!parsed.success) return json(400, { error: 'Validation failed', issues: parsed.error.issues });
    return json(201, createPost(parsed.data));
  };
} else if (scenario === 'routes') {
  const table = new Map();
  for (const r of DECOY_ROUTES) table.set(r.prefix, r);
  handler = (request) => {
    if (request.method !== 'GET') return notFound();
    const segments = pathOf(request.url).split('/');
    const first = segments[1];
    if (first === 'posts' && segments.length === 3 && segments[2] !== '') {
      const id = decodeParam(segments[2]);
      return id === undefined ? json(400, { error: 'Bad Request' }) : json(200, fixedPost(id));
    }
    const route = table.get(first);
    if (route !== undefined && segments[2] && (route.suffix ? segments.length === 4 && segments[3] === route.suffix : segments.length === 3)) {
      const id = decodeParam(segments[2]);
      return id === undefined ? json(400, { error: 'Bad Request' }) : json(200, decoyAnswer(route.index, id));
    }
    return notFound();
  };
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

serveFetch(handler, { port, host, ready });
