import { describe, expect, it } from 'vitest';
import { jsonLogger, silentLogger, createApp, defineController, defineModule, get, headerOf, jsonAnswer, post, TesseraError, UnauthorizedException, type AppOptions, type Guard } from '../index.js';
import { cors, deleteCookie, etag, getCookie, readSignedCookie, requestId, securityHeaders, serializeCookie, setCookie, signCookieValue } from './index.js';

class DenyGuard implements Guard {
  canActivate(): boolean {
    throw new UnauthorizedException();
  }
}

async function appWith(options: AppOptions) {
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      list: get('/things', () => [{ id: '1' }]),
      create: post('/things', () => ({ id: '2' })),
      guarded: get('/guarded', { guards: [DenyGuard] }, () => 'never'),
      login: post('/login', () => setCookie(setCookie(jsonAnswer(200, { ok: true }), 'session', 'abc'), 'theme', 'dark', { httpOnly: false })),
      me: get('/me', (ctx) => ({ session: getCookie(ctx, 'session') ?? null })),
      stream: get('/stream', () => new Response('streamed')),
    }),
  });
  return createApp(defineModule({ name: 'M', providers: [DenyGuard], controllers: [controller] }), { logger: silentLogger, ...options });
}

const ORIGIN = 'https://app.example.com';

describe('cors', () => {
  it('answers a preflight 204 before routing, with the allowed methods and the asked headers', async () => {
    const app = await appWith({ middleware: [cors({ origin: [ORIGIN], maxAge: 600 })] });
    const res = await app.request('/things', { method: 'OPTIONS', headers: { origin: ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, x-custom' } });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, POST, PUT, PATCH, DELETE');
    expect(res.headers.get('access-control-allow-headers')).toBe('content-type, x-custom');
    expect(res.headers.get('access-control-max-age')).toBe('600');
    expect(res.headers.get('vary')).toBe('Origin, Access-Control-Request-Headers');
  });

  it('puts the allow-origin header on errors and 404s too', async () => {
    const app = await appWith({ middleware: [cors({ origin: [ORIGIN] })] });
    for (const path of ['/guarded', '/nowhere', '/things']) {
      const res = await app.request(path, { headers: { origin: ORIGIN } });
      expect(res.headers.get('access-control-allow-origin'), path).toBe(ORIGIN);
      expect(res.headers.get('vary'), path).toBe('Origin');
    }
  });

  it('gives a disallowed origin no allow-origin header, on preflights and answers alike', async () => {
    const app = await appWith({ middleware: [cors({ origin: [ORIGIN] })] });
    const preflight = await app.request('/things', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    const answer = await app.request('/things', { headers: { origin: 'https://evil.example' } });
    expect(answer.headers.get('access-control-allow-origin')).toBeNull();
    expect(answer.headers.get('vary')).toBe('Origin');
  });

  it('decides with a function, and echoes the origin with credentials and exposed headers', async () => {
    const app = await appWith({ middleware: [cors({ origin: (o) => o.endsWith('.example.com'), credentials: true, exposeHeaders: ['x-request-id'] })] });
    const res = await app.request('/things', { headers: { origin: ORIGIN } });
    expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    expect(res.headers.get('access-control-expose-headers')).toBe('x-request-id');
  });

  it("answers '*' for any origin without Vary", async () => {
    const app = await appWith({ middleware: [cors({ origin: '*' })] });
    const res = await app.request('/things', { headers: { origin: 'https://anyone.example' } });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('vary')).toBeNull();
  });

  it("refuses '*' with credentials, and a listed origin with a trailing slash, at boot", () => {
    expect(() => cors({ origin: '*', credentials: true })).toThrow(TesseraError);
    expect(() => cors({ origin: ['https://app.example.com/'] })).toThrow(/trailing slash/);
  });
});

describe('securityHeaders', () => {
  it('sets API-suited defaults on every answer, 401s and 404s included', async () => {
    const app = await appWith({ middleware: [securityHeaders()] });
    for (const path of ['/things', '/guarded', '/nowhere']) {
      const res = await app.request(path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
      expect(res.headers.get('cross-origin-opener-policy'), path).toBe('same-origin');
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      expect(res.headers.get('content-security-policy'), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get('strict-transport-security'), `${path}: HSTS over plain http`).toBeNull();
    }
  });

  it('adds HSTS as asked over https, turns headers off with false, and keeps a header the handler set', async () => {
    const app = await appWith({ middleware: [securityHeaders({ hsts: { maxAge: 31_536_000, includeSubDomains: true }, frameOptions: false })] });
    const res = await app.request('https://localhost/things');
    expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    expect(res.headers.get('x-frame-options')).toBeNull();
    const own = await (await appWith({ middleware: [securityHeaders({ contentSecurityPolicy: "default-src 'self'" })] })).request('/things');
    expect(own.headers.get('content-security-policy')).toBe("default-src 'self'");
  });
});

describe('requestId', () => {
  it('generates an id, puts it on the answer, the context and the access log line', async () => {
    const lines: string[] = [];
    const app = await appWith({ middleware: [requestId({ generate: () => 'generated-1' })], logger: jsonLogger({ write: (line) => lines.push(line) }), accessLog: true });
    const res = await app.request('/nowhere');
    expect(res.headers.get('x-request-id')).toBe('generated-1');
    expect(JSON.parse(lines[0] ?? '{}'), 'the access line carries the request id').toMatchObject({ path: '/nowhere', status: 404, requestId: 'generated-1' });
  });

  it('takes a well-formed incoming id, and replaces a malformed or oversized one', async () => {
    let n = 0;
    const app = await appWith({ middleware: [requestId({ generate: () => `new-${++n}` })] });
    expect((await app.request('/things', { headers: { 'x-request-id': 'abc-123.DEF' } })).headers.get('x-request-id')).toBe('abc-123.DEF');
    expect((await app.request('/things', { headers: { 'x-request-id': 'evil"id<' } })).headers.get('x-request-id')).toBe('new-1');
    expect((await app.request('/things', { headers: { 'x-request-id': 'a b' } })).headers.get('x-request-id')).toBe('new-2');
    expect((await app.request('/things', { headers: { 'x-request-id': 'x'.repeat(129) } })).headers.get('x-request-id')).toBe('new-3');
  });

  it('makes UUIDs by default', async () => {
    const app = await appWith({ middleware: [requestId()] });
    expect((await app.request('/things')).headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('etag', () => {
  it('tags a JSON answer strongly and answers a matching If-None-Match with 304 and no body', async () => {
    const app = await appWith({ middleware: [etag()] });
    const first = await app.request('/things');
    const tag = first.headers.get('etag');
    expect(tag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const again = await app.request('/things', { headers: { 'if-none-match': tag as string } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(tag);
    expect((await app.request('/things', { headers: { 'if-none-match': `W/${tag}, "other"` } })).status, 'weak comparison').toBe(304);
    expect((await app.request('/things', { headers: { 'if-none-match': '"other"' } })).status).toBe(200);
  });

  it('gives HEAD the same tag as GET, and 304 alike', async () => {
    const app = await appWith({ middleware: [etag()] });
    const tag = (await app.request('/things')).headers.get('etag');
    const head = await app.request('/things', { method: 'HEAD' });
    expect(head.headers.get('etag')).toBe(tag);
    expect(await head.text()).toBe('');
    expect((await app.request('/things', { method: 'HEAD', headers: { 'if-none-match': tag as string } })).status).toBe(304);
  });

  it('leaves POST answers, errors and streamed Responses untagged', async () => {
    const app = await appWith({ middleware: [etag()] });
    expect((await app.request('/things', { method: 'POST' })).headers.get('etag')).toBeNull();
    expect((await app.request('/nowhere')).headers.get('etag')).toBeNull();
    expect((await app.request('/stream')).headers.get('etag')).toBeNull();
  });
});

describe('cookies', () => {
  it('sets several cookies as separate Set-Cookie headers with safe defaults', async () => {
    const app = await appWith({});
    const res = await app.request('/login', { method: 'POST' });
    expect(res.headers.getSetCookie()).toEqual(['session=abc; Path=/; HttpOnly; Secure; SameSite=Lax', 'theme=dark; Path=/; Secure; SameSite=Lax']);
  });

  it('reads a cookie from the request', async () => {
    const app = await appWith({});
    expect(await (await app.request('/me', { headers: { cookie: 'theme=dark; session=abc' } })).json()).toEqual({ session: 'abc' });
  });

  it('refuses what a cookie cannot carry, and SameSite=None without Secure', () => {
    expect(() => serializeCookie('bad name', 'x')).toThrow(TesseraError);
    expect(() => serializeCookie('n', 'a;b')).toThrow(/encode it/);
    expect(() => serializeCookie('n', 'v', { sameSite: 'None', secure: false })).toThrow(/requires Secure/);
    expect(() => serializeCookie('n', 'v', { path: '/a;evil' })).toThrow(/forbidden characters/);
  });

  it('deletes a cookie with Max-Age=0 and an expiry in the past', () => {
    const res = deleteCookie(jsonAnswer(204, undefined), 'session');
    expect(headerOf(res, 'set-cookie')).toMatch(/^session=; Path=\/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax$/);
  });

  it('signs values and reads back only an untampered one, with any of the rotating secrets', () => {
    const secret = 's'.repeat(32);
    const signed = signCookieValue('cart-7', secret);
    const ctx = (value: string) => ({ header: (name: string) => (name === 'cookie' ? `cart=${value}` : null) });
    expect(readSignedCookie(ctx(signed), 'cart', [secret])).toBe('cart-7');
    expect(readSignedCookie(ctx(signed), 'cart', ['n'.repeat(32), secret]), 'an older secret still verifies').toBe('cart-7');
    expect(readSignedCookie(ctx(signed.replace('cart-7', 'cart-8')), 'cart', [secret]), 'a changed value').toBeUndefined();
    expect(readSignedCookie(ctx('cart-7'), 'cart', [secret]), 'no signature').toBeUndefined();
    expect(() => signCookieValue('x', 'short')).toThrow(/32 characters/);
  });
});
