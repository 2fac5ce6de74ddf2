// Express 5: express.json() then zod by hand; GET /me with a jose jwtVerify middleware.
import express from 'express';
import { DECOY_ROUTES, JWT_SECRET, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';

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
  const { Claims } = await import('./schemas.mjs');
  const { jwtVerify } = await import('jose'); // lazily: cold start (hello) must not pay for it
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(JWT_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  const verifyBearer = async (req, res, next) => {
    const auth = req.headers.authorization;
    try {
      if (!auth || !auth.startsWith('Bearer ')) throw new Error('no token');
      const { payload } = await jwtVerify(auth.slice(7), key, { algorithms: ['HS256'], typ: 'at+jwt', requiredClaims: ['exp'] });
      const claims = Claims.safeParse(payload);
      if (!claims.success) throw new Error('bad claims');
      req.user = claims.data;
    } catch {
      return res.status(401).set('www-authenticate', 'Bearer').json({ error: 'Unauthorized' });
    }
    next();
  };
  app.get('/me', verifyBearer, (req, res) => res.json(req.user));
} else {
  throw new Error(`unknown scenario ${scenario}`);
}

app.listen(port, host, ready);
