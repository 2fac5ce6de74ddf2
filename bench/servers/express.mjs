// Express 5: express.json() then zod by hand; GET /me with a jose jwtVerify middleware.
import express from 'express';
import { DECOY_ROUTES, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';

const app = express();
app.disable('x-powered-by');
app.disable('etag');
if (scenario === 'hello') {
  app.get('/hello/:name', (req, res) => res.json({ message: `Hello, ${req.params.name}!` }));
} else if (scenario === 'create') {
  const { CreatePost } = await import('./schemas.mjs');
  app.post('/posts', express.json(), (req, res) => {
    const parsed = CreatePost.safeParse(req.body);
    if (!parsed.success) return res.status(400).json({ error: 'Validation failed', issues: parsed.error.issues });
    res.status(201).json(createPost(parsed.data));
  });
} else if (scenario === 'routes') {
  for (const r of DECOY_ROUTES) app.get(r.path, (req, res) => res.json(decoyAnswer(r.index, req.params.id)));
  app.get('/posts/:id', (req, res) => res.json(fixedPost(req.params.id)));
} else if (scenario === 'me') {
  const { verifyBearerHeader } = await import('./jose-bearer.mjs'); // lazily: cold start (hello) must not pay for it
  const verifyBearer = async (req, res, next) => {
    const user = await verifyBearerHeader(req.headers.authorization);
    if (user === undefined) return res.status(401).set('www-authenticate', 'Bearer').json({ error: 'Unauthorized' });
    req.user = user;
    next();
  };
  app.get('/me', verifyBearer, (req, res) => res.json(req.user));
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

app.listen(port, host, ready);
