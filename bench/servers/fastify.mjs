// Fastify 5. No JSON schema on the route (that would skip zod and be unfair): its default JSON
// body parser, then zod by hand in the handler. GET /me: a hand-written preHandler with jose
// jwtVerify (@fastify/jwt / fast-jwt are not installed).
import Fastify from 'fastify';
import { DECOY_ROUTES, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';
import { otelMode, startOtelSdk } from './otel.mjs';

const app = Fastify({ logger: false });
if (otelMode === 'sdk') {
  // @fastify/otel as its README sets it up: an SDK instrumentation whose plugin is registered
  // before the routes (a SERVER span per request, plus its handler and hook spans).
  const { default: FastifyOtelInstrumentation } = await import('@fastify/otel');
  const instrumentation = new FastifyOtelInstrumentation();
  await startOtelSdk([instrumentation]);
  await app.register(instrumentation.plugin());
}
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
  const { verifyBearerHeader } = await import('./jose-bearer.mjs'); // lazily: cold start (hello) must not pay for it
  const verifyBearer = async (req, reply) => {
    const user = await verifyBearerHeader(req.headers.authorization);
    if (user === undefined) return reply.code(401).header('www-authenticate', 'Bearer').send({ error: 'Unauthorized' });
    req.user = user;
  };
  app.decorateRequest('user', null);
  app.get('/me', { preHandler: verifyBearer }, async (req) => req.user);
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

await app.listen({ port, host });
ready();
