import { describe, expect, it } from 'vitest';
import { createApp, defineController, defineModule, get, jsonAnswer, withHeaders, type Middleware } from '../../lib/index.js';

// The ten-line middleware of docs/architecture.md, as written there.
function allowOrigin(origin: string): Middleware {
  return async (ctx, next) => {
    if (ctx.header('origin') !== origin) return next();
    const headers = { 'access-control-allow-origin': origin, vary: 'Origin' };
    if (ctx.method === 'OPTIONS') return withHeaders(jsonAnswer(204, undefined), { ...headers, 'access-control-allow-methods': 'GET, POST' });
    return withHeaders(await next(), headers);
  };
}

describe('the middleware example of docs/architecture.md', () => {
  const origin = 'https://app.example.com';
  const appWith = () =>
    createApp(defineModule({ name: 'M', controllers: [defineController({ name: 'C', routes: () => ({ a: get('/a', () => ({ ok: true })) }) })] }), {
      middleware: [allowOrigin(origin)],
    });

  it('answers a preflight before routing (the path has no OPTIONS route)', async () => {
    const res = await (await appWith()).request('/a', { method: 'OPTIONS', headers: { origin } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
  });

  it('adds the allow-origin header to answers, 404s included', async () => {
    const app = await appWith();
    expect((await app.request('/a', { headers: { origin } })).headers.get('access-control-allow-origin')).toBe(origin);
    expect((await app.request('/nowhere', { headers: { origin } })).headers.get('access-control-allow-origin')).toBe(origin);
  });

  it('leaves other origins alone', async () => {
    const res = await (await appWith()).request('/a', { headers: { origin: 'https://evil.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
