// The Hono app of each scenario, shared by the Node server (hono.mjs, @hono/node-server) and the
// fetch runtimes (hono-fetch.mjs on Bun and Deno, hono-worker.mjs on workerd). zod by hand in the
// handler (no @hono/zod-validator), hono/jwt for GET /me.
import { Hono } from 'hono';
import { DECOY_ROUTES, JWT_SECRET, createPost, decoyAnswer, fixedPost } from './shared.mjs';

/** @example const app = await honoApp('hello'); */
export async function honoApp(scenario, app = new Hono()) {
  if (scenario === 'hello') {
    app.get('/hello/:name', (c) => c.json({ message: `Hello, ${c.req.param('name')}!` }));
  } else if (scenario === 'create') {
    const { CreatePost } = await import('./schemas.mjs');
    app.post('/posts', async (c) => {
      if (!(c.req.header('content-type') ?? '').startsWith('application/json')) return c.json({ error: 'Unsupported Media Type' }, 415);
      let json;
      try {
        json = await c.req.json();
      } catch {
        return c.json({ error: 'Invalid JSON' }, 400);
      }
      const parsed = CreatePost.safeParse(json);
      if (!parsed.success) return c.json({ error: 'Validation failed', issues: parsed.error.issues }, 400);
      return c.json(createPost(parsed.data), 201);
    });
  } else if (scenario === 'routes') {
    for (const r of DECOY_ROUTES) app.get(r.path, (c) => c.json(decoyAnswer(r.index, c.req.param('id'))));
    app.get('/posts/:id', (c) => c.json(fixedPost(c.req.param('id'))));
  } else if (scenario === 'me') {
    const { Claims } = await import('./schemas.mjs');
    const { jwt } = await import('hono/jwt');
    // `verification.typ`: hono/jwt refuses a typ other than JWT unless told which one to expect.
    app.get('/me', jwt({ secret: JWT_SECRET, alg: 'HS256', verification: { typ: 'at+jwt' } }), (c) => {
      const claims = Claims.safeParse(c.get('jwtPayload'));
      if (!claims.success) return c.json({ error: 'Unauthorized' }, 401);
      return c.json(claims.data);
    });
  } else {
    throw new Error(`unknown scenario ${scenario}`);
  }
  return app;
}
