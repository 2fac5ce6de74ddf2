// Baseline: raw node:http with a hand-written dispatcher. Same work as the frameworks: JSON
// answers, zod validation of the POST body, the same 50 decoy routes, bearer verification.
import { createServer } from 'node:http';
import { DECOY_ROUTES, decodeParam, JWT_SECRET, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';

function send(res, status, value) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
const notFound = (res) => send(res, 404, { error: 'Not Found' });

function pathOf(url) {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

let handler;
if (scenario === 'hello') {
  handler = (req, res) => {
    const path = pathOf(req.url);
    if (req.method === 'GET' && path.startsWith('/hello/') && path.indexOf('/', 7) === -1 && path.length > 7) {
      const name = decodeParam(path.slice(7));
      if (name === undefined) return send(res, 400, { error: 'Bad Request' });
      return send(res, 200, { message: `Hello, ${name}!` });
    }
    notFound(res);
  };
} else if (scenario === 'create') {
  const { CreatePost } = await import('./schemas.mjs');
  handler = (req, res) => {
    if (req.method !== 'POST' || pathOf(req.url) !== '/posts') return notFound(res);
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, { error: 'Unsupported Media Type' });
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      let json;
      try {
        json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return send(res, 400, { error: 'Invalid JSON' });
      }
      const parsed = CreatePost.safeParse(json);
      if (!parsed.success) return send(res, 400, { error: 'Validation failed', issues: parsed.error.issues });
      send(res, 201, createPost(parsed.data));
    });
  };
} else if (scenario === 'routes') {
  // Hand dispatch: first segment -> route, then the segment count.
  const table = new Map();
  for (const r of DECOY_ROUTES) table.set(r.prefix, r);
  handler = (req, res) => {
    if (req.method !== 'GET') return notFound(res);
    const segments = pathOf(req.url).split('/'); // ['', first, id, (x)]
    const first = segments[1];
    if (first === 'posts' && segments.length === 3 && segments[2] !== '') {
      const id = decodeParam(segments[2]);
      return id === undefined ? send(res, 400, { error: 'Bad Request' }) : send(res, 200, fixedPost(id));
    }
    const route = table.get(first);
    if (route !== undefined && segments[2] && (route.suffix ? segments.length === 4 && segments[3] === route.suffix : segments.length === 3)) {
      const id = decodeParam(segments[2]);
      return id === undefined ? send(res, 400, { error: 'Bad Request' }) : send(res, 200, decoyAnswer(route.index, id));
    }
    notFound(res);
  };
} else if (scenario === 'me') {
  const { Claims } = await import('./schemas.mjs');
  const { jwtVerify } = await import('jose'); // lazily: cold start (hello) must not pay for it
  // jose with a pre-imported key, as in the Fastify and Express servers.
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(JWT_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const unauthorized = (res) => {
    res.setHeader('www-authenticate', 'Bearer');
    send(res, 401, { error: 'Unauthorized' });
  };
  handler = async (req, res) => {
    if (req.method !== 'GET' || pathOf(req.url) !== '/me') return notFound(res);
    const auth = req.headers.authorization;
    if (!auth || !auth.startsWith('Bearer ')) return unauthorized(res);
    try {
      const { payload } = await jwtVerify(auth.slice(7), key, { algorithms: ['HS256'], typ: 'at+jwt', requiredClaims: ['exp'] });
      const claims = Claims.safeParse(payload);
      if (!claims.success) return unauthorized(res);
      send(res, 200, claims.data);
    } catch {
      unauthorized(res);
    }
  };
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

createServer(handler).listen(port, host, ready);
