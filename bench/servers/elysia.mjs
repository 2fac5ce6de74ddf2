// Elysia 1.4 on Bun. The same zod 4 schema as every server, by hand in the handler (as for Hono
// and Fastify): Elysia would validate a Standard Schema itself, but answers 422 where the others
// answer 400, and the harness checks the same answers everywhere.
import { Elysia } from 'elysia';
import { DECOY_ROUTES, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';

const app = new Elysia();
if (scenario === 'hello') {
  app.get('/hello/:name', ({ params }) => ({ message: `Hello, ${params.name}!` }));
} else if (scenario === 'create') {
  const { CreatePost } = await import('./schemas.mjs');
  app.post('/posts', ({ body, status }) => {
    const parsed = CreatePost.safeParse(body);
    if (!parsed.success) return status(400, { error: 'Validation failed', issues: parsed.error.issues });
    return status(201, createPost(parsed.data));
  });
} else if (scenario === 'routes') {
  for (const r of DECOY_ROUTES) app.get(r.path, ({ params }) => decoyAnswer(r.index, params.id));
  app.get('/posts/:id', ({ params }) => fixedPost(params.id));
} else {
  throw new Error(`unknown scenario ${scenario}`);
}
app.listen({ port, hostname: host }, () => ready());
