// Fastify 5. No JSON schema on the route (that would skip zod and be unfair): its default JSON
// body parser, then zod by hand in the handler. GET /me: a hand-written preHandler with jose
// jwtVerify (@fastify/jwt / fast-jwt are not installed).
import Fastify from 'fastify';
import { DECOY_ROUTES, JWT_SECRET, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';

const app = Fastify({ logger: false });
if (scenario === 'hello') {
  app.get('/hello/:name', async (req) => ({ message: `Hello, ${req.params.name}!` }));
} else if (scenario === 'create') {
  const { CreatePost } = await import('./schemas.mjs');
  app.post('/posts', async (req, reply) => {
    const parsed = CreatePost.safeParse(req.body);
    if (!parsed.success) return reply.code(400).send({ error: 'Validation failed', issues: parsed.error.issues });
    return reply.code(201).send(createPost(parsed.data));
  });
} else if (scenario === 'routes') {
  for (const r of DECOY_ROUTES) app.get(r.path, async (req) => decoyAnswer(r.index, req.params.id));
  app.get('/posts/:id', async (req) => fixedPost(req.params.id));
} else if (scenario === 'me') {
  const { Claims } = await import('./schemas.mjs');
  const { jwtVerify } = await import('jose'); // lazily: cold start (hello) must not pay for it
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(JWT_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const verifyBearer = async (req, reply) => {
    const auth = req.headers.authorization;
    try {
      if (!auth || !auth.startsWith('Bearer ')) throw new Error('no token');
      const { payload } = await jwtVerify(auth.slice(7), key, { algorithms: ['HS256'], typ: 'at+jwt', requiredClaims: ['exp'] });
      const claims = Claims.safeParse(payload);
      if (!claims.success) throw new Error('bad claims');
      req.user = claims.data;
    } catch {
      return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized' });
    }
  };
  app.decorateRequest('user', null);
  app.get('/me', { preHandler: verifyBearer }, async (req) => req.user);
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

await app.listen({ port, host });
ready();
