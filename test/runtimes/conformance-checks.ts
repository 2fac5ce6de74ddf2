import { expect } from 'vitest';
import { openSocket, type SocketRecord } from '../websocket/socket-client.js';
import { sendBytes, type Framing } from './byte-bodies.js';

/** One HTTP answer as the suite compares it across runtimes: random and time-dependent values replaced. */
export interface Exchange {
  readonly request: string;
  readonly status: number;
  /** Only the headers whose meaning the framework owns; transport headers (date, connection) differ by design. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
}

/** A raw answer, before normalisation. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly json: unknown;
}

/** What a check knows about the runtime it drives. */
export interface CheckTarget {
  readonly name: string;
  /** Whether the runtime hands the socket's peer address to `app.fetch` (Node, Bun, Deno: yes; Workers: no). */
  readonly givesClientAddress: boolean;
  readonly urls: { readonly site: string; readonly tenants: string };
}

/** State one runtime's checks pass on to later checks (tokens, keys, ids), plus the fixtures. */
export interface CheckContext {
  readonly target: CheckTarget;
  readonly saved: Map<string, string>;
  /** An Argon2id PHC string of {@link PASSWORD}, made by the test process, which every runtime must verify. */
  readonly storedHash: string;
  request(app: 'site' | 'tenants', method: string, path: string, init?: { json?: unknown; body?: string; headers?: Record<string, string> }): Promise<RawAnswer>;
}

/**
 * One entry of the shared list. `run` sends its requests, asserts what must hold on every runtime
 * and returns the normalised exchanges, which must then equal Node's. `comparable: false` marks a
 * check whose answer legitimately depends on the runtime (the client address); it is asserted only.
 */
export interface ConformanceCheck {
  readonly name: string;
  readonly comparable?: boolean;
  run(ctx: CheckContext): Promise<Exchange[]>;
}

/** The password `POST /password/check` is exercised with; the demo accounts use their own. */
export const PASSWORD = 'correct horse battery staple';
const DEMO_PASSWORD = 'tessera-demo-password';
const CONFORMANCE_ORIGIN = 'http://conformance.test';
const COMPARED_HEADERS = ['content-type', 'allow', 'www-authenticate', 'retry-after'] as const;
const JSON_TYPE = 'application/json';
const PROBLEM_TYPE = 'application/problem+json';

// Values that are random or read from the clock, replaced wherever they appear in a body.
const REPLACEMENTS: readonly (readonly [RegExp, string])[] = [
  [/eyJ[\w-]+\.eyJ[\w-]+\.[\w-]+/g, '<jwt>'],
  [/tsk_[0-9a-f]{24}_[\w-]+/g, '<api-key>'],
  [/\b[0-9a-f]{24}\b/g, '<api-key-id>'],
  [/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<date>'],
];
// Opaque random values recognisable only by the field that holds them.
const OPAQUE_FIELDS = new Set(['refreshToken']);

function normaliseValue(value: unknown, field?: string): unknown {
  if (typeof value === 'string') {
    if (field !== undefined && OPAQUE_FIELDS.has(field)) return `<${field}>`;
    return REPLACEMENTS.reduce((text, [pattern, label]) => text.replace(pattern, label), value);
  }
  if (Array.isArray(value)) return value.map((item) => normaliseValue(item));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, normaliseValue(item, key)]));
  }
  return value;
}

/**
 * The comparable form of an answer: status, the framework's headers, and the body with random
 * and time-dependent values replaced by placeholders (`<jwt>`, `<api-key>`, `<date>`, ...).
 *
 * @example
 * normaliseAnswer('POST /auth/sign-in', answer); // { status: 200, body: { accessToken: '<jwt>', ... } }
 */
export function normaliseAnswer(request: string, answer: RawAnswer): Exchange {
  const headers: Record<string, string> = {};
  for (const name of COMPARED_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) headers[name] = name === 'retry-after' ? '<seconds>' : value;
  }
  return { request, status: answer.status, headers, body: answer.json === undefined ? answer.text : normaliseValue(answer.json) };
}

/** Sends one request, checks status and content type, and returns the answer with its normalised form. */
async function exchange(
  ctx: CheckContext,
  app: 'site' | 'tenants',
  method: string,
  path: string,
  expected: { status: number; type?: string | null },
  init?: { json?: unknown; body?: string; headers?: Record<string, string> },
): Promise<{ answer: RawAnswer; normalised: Exchange }> {
  const request = `${method} ${path}`;
  const answer = await ctx.request(app, method, path, init);
  expect(answer.status, `${ctx.target.name}: ${request} -> ${answer.text.slice(0, 300)}`).toBe(expected.status);
  if (expected.type !== undefined) expect(answer.headers.get('content-type'), `${ctx.target.name}: ${request} content-type`).toBe(expected.type);
  return { answer, normalised: normaliseAnswer(request, answer) };
}

function saved(ctx: CheckContext, name: string): string {
  const value = ctx.saved.get(name);
  if (value === undefined) throw new Error(`an earlier check did not save "${name}"; see its failure`);
  return value;
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

async function createApiKey(ctx: CheckContext, body: { name: string; scopes: string[]; allowedCidrs?: string[] }) {
  const created = await exchange(ctx, 'tenants', 'POST', '/tenants/acme/api-keys', { status: 201, type: JSON_TYPE }, { json: body, headers: bearer(saved(ctx, 'alice')) });
  const key = (created.answer.json as { key?: unknown }).key;
  expect(key).toMatch(/^tsk_/);
  return { key: key as string, normalised: created.normalised };
}

/**
 * The one list of HTTP checks every runtime must pass, in order (later checks use what earlier
 * ones created). Covers the greeting, the blog's CRUD with its 400/404/405/415 answers, the
 * OpenAPI document, Argon2id hashing inside the runtime, sign-in and bearer tokens, an idempotent
 * create's replay, API keys (scopes, network restrictions, rate limit) and refresh-token rotation.
 */
export const CONFORMANCE_CHECKS: readonly ConformanceCheck[] = [
  {
    name: 'greeting: GET /hello/:name',
    run: async (ctx) => [(await exchange(ctx, 'site', 'GET', '/hello/Ada%20Lovelace', { status: 200, type: JSON_TYPE })).normalised],
  },
  {
    name: 'blog: create, read and list posts',
    run: async (ctx) => {
      const empty = await exchange(ctx, 'site', 'GET', '/posts', { status: 200, type: JSON_TYPE });
      expect(empty.answer.json).toEqual([]);
      const created = await exchange(ctx, 'site', 'POST', '/posts', { status: 201, type: JSON_TYPE }, { json: { title: 'Hello from every runtime' } });
      expect(created.answer.json).toMatchObject({ id: '1', title: 'Hello from every runtime', body: '' });
      const second = await exchange(ctx, 'site', 'POST', '/posts', { status: 201, type: JSON_TYPE }, { json: { title: 'Ünïcødé ✓', body: 'line\nbreak' } });
      const read = await exchange(ctx, 'site', 'GET', '/posts/1', { status: 200, type: JSON_TYPE });
      const list = await exchange(ctx, 'site', 'GET', '/posts', { status: 200, type: JSON_TYPE });
      expect(list.answer.json).toHaveLength(2);
      return [empty, created, second, read, list].map((x) => x.normalised);
    },
  },
  {
    name: 'blog: update a post, 400 for invalid input',
    run: async (ctx) => {
      const updated = await exchange(ctx, 'site', 'PATCH', '/posts/1', { status: 200, type: JSON_TYPE }, { json: { body: 'edited' } });
      expect(updated.answer.json).toMatchObject({ id: '1', body: 'edited' });
      const emptyTitle = await exchange(ctx, 'site', 'POST', '/posts', { status: 400, type: PROBLEM_TYPE }, { json: { title: '' } });
      expect(emptyTitle.answer.json).toMatchObject({ status: 400, issues: [expect.objectContaining({ path: ['title'] })] });
      const wrongType = await exchange(ctx, 'site', 'PATCH', '/posts/1', { status: 400, type: PROBLEM_TYPE }, { json: { title: 42 } });
      const badJson = await exchange(ctx, 'site', 'POST', '/posts', { status: 400, type: PROBLEM_TYPE }, { body: '{"title":', headers: { 'content-type': JSON_TYPE } });
      const notJson = await exchange(ctx, 'site', 'POST', '/posts', { status: 415, type: PROBLEM_TYPE }, { body: 'title=x', headers: { 'content-type': 'text/plain' } });
      return [updated, emptyTitle, wrongType, badJson, notJson].map((x) => x.normalised);
    },
  },
  {
    name: 'blog: 404 for unknown posts and paths, 405 with Allow',
    run: async (ctx) => {
      const missing = await exchange(ctx, 'site', 'GET', '/posts/999', { status: 404, type: PROBLEM_TYPE });
      const unknownPath = await exchange(ctx, 'site', 'GET', '/no/such/path', { status: 404, type: PROBLEM_TYPE });
      const put = await exchange(ctx, 'site', 'PUT', '/posts/1', { status: 405, type: PROBLEM_TYPE }, { json: { title: 'x' } });
      expect(put.answer.headers.get('allow')).toBe('GET, PATCH, DELETE');
      const deleteAll = await exchange(ctx, 'site', 'DELETE', '/posts', { status: 405, type: PROBLEM_TYPE });
      expect(deleteAll.answer.headers.get('allow')).toBe('GET, POST');
      return [missing, unknownPath, put, deleteAll].map((x) => x.normalised);
    },
  },
  {
    name: 'blog: HEAD answers like GET without a body',
    run: async (ctx) => {
      const head = await exchange(ctx, 'site', 'HEAD', '/posts', { status: 200, type: JSON_TYPE });
      expect(head.answer.text).toBe('');
      return [head.normalised];
    },
  },
  {
    name: 'blog: delete a post (204), then 404',
    run: async (ctx) => {
      const removed = await exchange(ctx, 'site', 'DELETE', '/posts/1', { status: 204, type: null });
      expect(removed.answer.text).toBe('');
      const again = await exchange(ctx, 'site', 'DELETE', '/posts/1', { status: 404, type: PROBLEM_TYPE });
      const gone = await exchange(ctx, 'site', 'GET', '/posts/1', { status: 404, type: PROBLEM_TYPE });
      const list = await exchange(ctx, 'site', 'GET', '/posts', { status: 200, type: JSON_TYPE });
      expect(list.answer.json).toHaveLength(1);
      return [removed, again, gone, list].map((x) => x.normalised);
    },
  },
  {
    name: 'blog: a JSON body that is not UTF-8 is 400 and another charset 415, however it arrives; a sent U+FFFD and a BOM are kept and ignored',
    run: async (ctx) => {
      const url = `${ctx.target.urls.site}/posts`;
      const answers: Exchange[] = [];
      const send = async (label: string, bytes: Uint8Array, framing: Framing, expected: number, contentType = JSON_TYPE, chunkBytes = 1) => {
        const answer = await sendBytes(url, bytes, contentType, framing, chunkBytes);
        const request = `POST /posts ${label} (${framing})`;
        expect(answer.status, `${ctx.target.name}: ${request} -> ${answer.text.slice(0, 300)}`).toBe(expected);
        answers.push(normaliseAnswer(request, answer));
        return answer;
      };
      for (const framing of ['declared', 'chunked'] as const) {
        for (const [label, inner] of MALFORMED_UTF8) {
          const refused = await send(label, titled(inner), framing, 400);
          expect(refused.json, `${ctx.target.name}: ${label} (${framing})`).toMatchObject({ status: 400, detail: 'The body is not valid UTF-8.' });
        }
        // Past the first 64 KiB, in 4093-byte chunks on the chunked path.
        await send('100 KB then FF', titled([...new TextEncoder().encode('x'.repeat(100_000)), 0xff]), framing, 400, JSON_TYPE, 4_093);
        await send('latin1 E9', titled([0xe9]), framing, 415, 'application/json; charset=latin1');
        const kept = await send('EF BF BD (a U+FFFD sent)', titled([0xef, 0xbf, 0xbd]), framing, 201);
        expect(kept.json, `${ctx.target.name}: the U+FFFD the client sent (${framing})`).toMatchObject({ title: 'a\uFFFDb' });
        const bom = await send('BOM first', new Uint8Array([0xef, 0xbb, 0xbf, ...titled([0xc3, 0xa9])]), framing, 201);
        expect(bom.json, `${ctx.target.name}: a leading BOM (${framing})`).toMatchObject({ title: 'aéb' });
      }
      return answers;
    },
  },
  {
    name: 'middleware: security headers, request ids, CORS, compression and ETags',
    run: async (ctx) => {
      const missing = await exchange(ctx, 'site', 'GET', '/nowhere', { status: 404, type: PROBLEM_TYPE });
      expect(missing.answer.headers.get('x-content-type-options'), `${ctx.target.name}: nosniff on a 404`).toBe('nosniff');
      expect(missing.answer.headers.get('x-request-id'), `${ctx.target.name}: request id`).toMatch(/^[0-9a-f-]{36}$/);
      const preflight = await exchange(ctx, 'site', 'OPTIONS', '/posts', { status: 204, type: null }, {
        headers: { origin: CONFORMANCE_ORIGIN, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.answer.headers.get('access-control-allow-origin')).toBe(CONFORMANCE_ORIGIN);
      const doc = await exchange(ctx, 'site', 'GET', '/openapi.json', { status: 200, type: JSON_TYPE }, { headers: { 'accept-encoding': 'gzip' } });
      expect(doc.answer.headers.get('content-encoding'), `${ctx.target.name}: gzip`).toBe('gzip');
      expect(doc.answer.json).toMatchObject({ openapi: '3.1.0' });
      const list = await exchange(ctx, 'site', 'GET', '/posts', { status: 200, type: JSON_TYPE });
      const tag = list.answer.headers.get('etag');
      expect(tag).toMatch(/^"[\w-]+"$/);
      const unchanged = await exchange(ctx, 'site', 'GET', '/posts', { status: 304, type: null }, { headers: { 'if-none-match': tag as string } });
      expect(unchanged.answer.text).toBe('');
      return [missing, preflight, unchanged].map((x) => x.normalised);
    },
  },
  {
    name: 'middleware: cookies as separate Set-Cookie headers, bounded multipart uploads, an event stream',
    run: async (ctx) => {
      const cookies = await exchange(ctx, 'site', 'GET', '/kit/cookies', { status: 200, type: JSON_TYPE });
      expect(cookies.answer.headers.getSetCookie(), ctx.target.name).toEqual(['a=1; Path=/; HttpOnly; Secure; SameSite=Lax', 'b=2; Path=/; Secure; SameSite=Lax']);
      const form = (content: string) => ({
        body: `--kitB\r\nContent-Disposition: form-data; name="file"; filename="f.txt"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--kitB--\r\n`,
        headers: { 'content-type': 'multipart/form-data; boundary=kitB' },
      });
      const uploaded = await exchange(ctx, 'site', 'POST', '/kit/upload', { status: 201, type: JSON_TYPE }, form('hello'));
      expect(uploaded.answer.json).toEqual({ name: 'f.txt', size: 5 });
      const tooLarge = await exchange(ctx, 'site', 'POST', '/kit/upload', { status: 413, type: PROBLEM_TYPE }, form('x'.repeat(2_000)));
      const notMultipart = await exchange(ctx, 'site', 'POST', '/kit/upload', { status: 415, type: PROBLEM_TYPE }, { json: { file: 'x' } });
      const events = await exchange(ctx, 'site', 'GET', '/kit/events', { status: 200, type: 'text/event-stream; charset=utf-8' });
      expect(events.answer.text).toBe('event: hello\nid: 1\ndata: {"n":1}\n\n');
      return [cookies, uploaded, tooLarge, notMultipart, events].map((x) => x.normalised);
    },
  },
  {
    name: 'openapi: GET /openapi.json',
    run: async (ctx) => {
      const doc = await exchange(ctx, 'site', 'GET', '/openapi.json', { status: 200, type: JSON_TYPE });
      expect(doc.answer.json).toMatchObject({ openapi: '3.1.0', paths: { '/posts/{id}': expect.any(Object), '/password/check': expect.any(Object) } });
      return [doc.normalised];
    },
  },
  {
    name: 'passwords: Argon2id hash and verify inside the runtime, and verify a hash made elsewhere',
    run: async (ctx) => {
      const check = await exchange(ctx, 'site', 'POST', '/password/check', { status: 200, type: JSON_TYPE }, { json: { password: PASSWORD, storedHash: ctx.storedHash } });
      expect(check.answer.json).toEqual({ format: '$argon2id$v=19$m=19456,t=2,p=1$', verifiesOwnHash: true, rejectsWrongPassword: true, verifiesStoredHash: true });
      const otherPassword = await exchange(ctx, 'site', 'POST', '/password/check', { status: 200, type: JSON_TYPE }, { json: { password: 'not it', storedHash: ctx.storedHash } });
      expect(otherPassword.answer.json).toMatchObject({ verifiesStoredHash: false });
      const malformed = await exchange(ctx, 'site', 'POST', '/password/check', { status: 400, type: PROBLEM_TYPE }, { json: { password: PASSWORD, storedHash: '$argon2id$v=19$m=19456,t=2,p=1$bad' } });
      return [check.normalised, otherPassword.normalised, malformed.normalised];
    },
  },
  {
    name: 'auth: 401 with WWW-Authenticate without a valid token; wrong password refused',
    run: async (ctx) => {
      const anonymous = await exchange(ctx, 'tenants', 'GET', '/me', { status: 401, type: PROBLEM_TYPE });
      expect(anonymous.answer.headers.get('www-authenticate')).toBe('Bearer');
      // The tenants app sends its security headers on every runtime (they were missing here once).
      expect([anonymous.answer.headers.get('x-content-type-options'), anonymous.answer.headers.get('content-security-policy')], `${ctx.target.name}: the tenants app's security headers`).toEqual(['nosniff', "default-src 'none'; frame-ancestors 'none'"]);
      const forged = await exchange(ctx, 'tenants', 'GET', '/me', { status: 401, type: PROBLEM_TYPE }, { headers: bearer('eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZSJ9.forged') });
      const wrongPassword = await exchange(ctx, 'tenants', 'POST', '/auth/sign-in', { status: 401, type: PROBLEM_TYPE }, { json: { identifier: 'alice@acme.test', password: 'wrong password' } });
      return [anonymous, forged, wrongPassword].map((x) => x.normalised);
    },
  },
  {
    name: 'auth: sign in (Argon2id verify), then a guarded route with the bearer token',
    run: async (ctx) => {
      const signIn = await exchange(ctx, 'tenants', 'POST', '/auth/sign-in', { status: 200, type: JSON_TYPE }, { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
      const pair = signIn.answer.json as { accessToken: string; refreshToken: string };
      ctx.saved.set('alice', pair.accessToken);
      ctx.saved.set('refresh', pair.refreshToken);
      const me = await exchange(ctx, 'tenants', 'GET', '/me', { status: 200, type: JSON_TYPE }, { headers: bearer(pair.accessToken) });
      expect(me.answer.json).toEqual({ sub: 'alice', roles: ['owner', 'member'], tenantId: 'acme' });
      const post = await exchange(ctx, 'tenants', 'POST', '/tenants/acme/posts', { status: 201, type: JSON_TYPE }, { json: { title: 'Tenant post' }, headers: bearer(pair.accessToken) });
      const otherTenant = await exchange(ctx, 'tenants', 'GET', '/tenants/globex/posts', { status: 404, type: PROBLEM_TYPE }, { headers: bearer(pair.accessToken) });
      return [signIn, me, post, otherTenant].map((x) => x.normalised);
    },
  },
  {
    name: 'api keys: create one as alice, read with it, its scopes and limits hold',
    run: async (ctx) => {
      const reader = await createApiKey(ctx, { name: 'reader', scopes: ['posts:read'] });
      const read = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', { status: 200, type: JSON_TYPE }, { headers: { 'x-api-key': reader.key } });
      expect(read.answer.json).toMatchObject([{ title: 'Tenant post' }]);
      const write = await exchange(ctx, 'tenants', 'POST', '/tenants/acme/posts', { status: 403, type: PROBLEM_TYPE }, { json: { title: 'no' }, headers: { 'x-api-key': reader.key } });
      const manage = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/api-keys', { status: 403, type: PROBLEM_TYPE }, { headers: { 'x-api-key': reader.key } });
      const me = await exchange(ctx, 'tenants', 'GET', '/me', { status: 200, type: JSON_TYPE }, { headers: { 'x-api-key': reader.key } });
      const invalid = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', { status: 401, type: PROBLEM_TYPE }, { headers: { 'x-api-key': `${reader.key.slice(0, -4)}AAAA` } });
      return [reader.normalised, read.normalised, write.normalised, manage.normalised, me.normalised, invalid.normalised];
    },
  },
  {
    name: 'api keys: a key for another network is refused from loopback',
    run: async (ctx) => {
      const elsewhere = await createApiKey(ctx, { name: 'elsewhere', scopes: ['posts:read'], allowedCidrs: ['192.0.2.0/24'] });
      const refused = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', { status: 401, type: PROBLEM_TYPE }, { headers: { 'x-api-key': elsewhere.key } });
      return [elsewhere.normalised, refused.normalised];
    },
  },
  {
    name: 'api keys: a key for 127.0.0.0/8 works from loopback only where the runtime gives the client address',
    comparable: false,
    run: async (ctx) => {
      const loopback = await createApiKey(ctx, { name: 'loopback', scopes: ['posts:read'], allowedCidrs: ['127.0.0.0/8'] });
      const expected = ctx.target.givesClientAddress ? { status: 200, type: JSON_TYPE } : { status: 401, type: PROBLEM_TYPE };
      const used = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', expected, { headers: { 'x-api-key': loopback.key } });
      // A header cannot stand in for the missing address: with trustedProxyHops 0 it is ignored.
      const spoofed = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', expected, { headers: { 'x-api-key': loopback.key, 'x-forwarded-for': '127.0.0.1' } });
      return [loopback.normalised, used.normalised, spoofed.normalised];
    },
  },
  {
    name: 'api keys: over the rate limit, 429 with Retry-After',
    run: async (ctx) => {
      const limited = await createApiKey(ctx, { name: 'limited', scopes: ['posts:read'] });
      const answers = [limited.normalised];
      // The servers run with API_KEY_RATE_LIMIT=3 per 60 s window.
      for (let i = 0; i < 3; i++) answers.push((await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', { status: 200 }, { headers: { 'x-api-key': limited.key } })).normalised);
      const over = await exchange(ctx, 'tenants', 'GET', '/tenants/acme/posts', { status: 429, type: PROBLEM_TYPE }, { headers: { 'x-api-key': limited.key } });
      const seconds = Number(over.answer.headers.get('retry-after'));
      expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 60, `retry-after ${seconds}`).toBe(true);
      return [...answers, over.normalised];
    },
  },
  {
    name: 'auth: refresh rotates the pair; replaying the old refresh token is refused and ends the session',
    run: async (ctx) => {
      const refreshToken = saved(ctx, 'refresh');
      const rotated = await exchange(ctx, 'tenants', 'POST', '/auth/refresh', { status: 200, type: JSON_TYPE }, { json: { refreshToken } });
      const replayed = await exchange(ctx, 'tenants', 'POST', '/auth/refresh', { status: 401, type: PROBLEM_TYPE }, { json: { refreshToken } });
      // The replay revoked the family: that session's access tokens, old and rotated, are refused.
      const ended = await exchange(ctx, 'tenants', 'GET', '/me', { status: 401, type: PROBLEM_TYPE }, { headers: bearer((rotated.answer.json as { accessToken: string }).accessToken) });
      const signIn = await exchange(ctx, 'tenants', 'POST', '/auth/sign-in', { status: 200, type: JSON_TYPE }, { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
      ctx.saved.set('alice', (signIn.answer.json as { accessToken: string }).accessToken);
      return [rotated.normalised, replayed.normalised, ended.normalised];
    },
  },
  {
    name: 'websocket: refusals are ordinary answers, before any socket',
    run: async (ctx) => {
      // (The 426's `Upgrade: websocket` header is hop-by-hop: Bun and Deno drop it, so it is not compared.)
      const plain = await exchange(ctx, 'site', 'GET', '/kit/socket', { status: 426, type: PROBLEM_TYPE });
      const foreign = await refusedUpgrade(ctx, 'site', '/kit/socket', { headers: { origin: 'https://evil.example' } });
      const anonymous = await refusedUpgrade(ctx, 'tenants', '/tenants/acme/live', {});
      const carol = await exchange(ctx, 'tenants', 'POST', '/auth/sign-in', { status: 200 }, { json: { identifier: 'carol@globex.test', password: DEMO_PASSWORD } });
      const otherTenant = await refusedUpgrade(ctx, 'tenants', '/tenants/acme/live', { headers: bearer((carol.answer.json as { accessToken: string }).accessToken) });
      expect([foreign.status, anonymous.status, otherTenant.status]).toEqual([403, 401, 404]);
      return [plain.normalised, foreign, anonymous, otherTenant];
    },
  },
  {
    name: 'websocket: an upgrade nothing completes is answered 501, with or without the upgrade headers',
    run: async (ctx) => {
      const upgrade = await refusedUpgrade(ctx, 'site', '/kit/no-upgrade', { headers: { origin: CONFORMANCE_ORIGIN } });
      const plain = await exchange(ctx, 'site', 'GET', '/kit/no-upgrade', { status: 501, type: PROBLEM_TYPE });
      expect(upgrade.status, `${ctx.target.name}: a 101 no WebSocket route accepted, on an upgrade request`).toBe(501);
      return [upgrade, plain.normalised];
    },
  },
  {
    name: 'websocket: JSON and binary messages, topics, validation (1007) and size (1009)',
    run: async (ctx) => {
      const options = { protocols: ['tessera'], headers: { origin: CONFORMANCE_ORIGIN } };
      const a = await openSocket(socketUrl(ctx, 'site', '/kit/socket'), options);
      const b = await openSocket(socketUrl(ctx, 'site', '/kit/socket'), options);
      const greeting = await a.next();
      await b.next();
      a.ws.send(JSON.stringify({ text: 'hi' }));
      const heardByA = await a.next();
      const heardByB = await b.next();
      a.ws.send(new Uint8Array([1, 2, 3, 255]));
      const bytes = await a.next();
      expect(bytes instanceof Uint8Array ? [...bytes] : bytes, `${ctx.target.name}: bytes come back as bytes`).toEqual([1, 2, 3, 255]);
      a.ws.send(JSON.stringify({ text: 5 }));
      const invalid = await a.closed;
      b.ws.send('x'.repeat(2_000));
      const oversized = await b.closed;
      return [
        socketExchange('open /kit/socket (tessera)', a.ws.protocol, greeting),
        socketExchange('send {"text":"hi"} (both hear it)', heardByA, heardByB),
        socketExchange('send {"text":5}', invalid.code),
        socketExchange('send 2000 bytes', oversized.code),
      ];
    },
  },
  {
    name: 'websocket: a route with a message schema chooses tessera.json when it is offered (the typed client then sends strings as JSON)',
    run: async (ctx) => {
      const socket = await openSocket(socketUrl(ctx, 'site', '/kit/socket'), { protocols: ['tessera.json', 'tessera'], headers: { origin: CONFORMANCE_ORIGIN } });
      const greeting = await socket.next();
      socket.ws.close();
      expect(socket.ws.protocol, `${ctx.target.name}: the chosen subprotocol`).toBe('tessera.json');
      return [socketExchange('open /kit/socket (tessera.json, tessera offered)', socket.ws.protocol, greeting)];
    },
  },
  {
    name: "websocket: the tenants' live socket pushes the tenant's created posts",
    run: async (ctx) => {
      const alice = saved(ctx, 'alice');
      const live = await openSocket(socketUrl(ctx, 'tenants', '/tenants/acme/live'), { protocols: ['tessera', `tessera.bearer.${alice}`] });
      // open() subscribes asynchronously; a first push may race it, so poll with posts until one arrives.
      let pushed: string | Uint8Array | undefined;
      for (let i = 0; i < 20 && pushed === undefined; i++) {
        await exchange(ctx, 'tenants', 'POST', '/tenants/acme/posts', { status: 201 }, { json: { title: `live ${i}` }, headers: bearer(alice) });
        pushed = await Promise.race([live.next(), new Promise<undefined>((resolve) => setTimeout(resolve, 100))]);
      }
      live.ws.close();
      const post = JSON.parse(String(pushed)) as { title: string };
      expect(post.title).toMatch(/^live \d+$/);
      return [socketExchange('live push', live.ws.protocol, normaliseValue({ ...post, title: 'live' }))];
    },
  },
  {
    // The answer is sealed on its way into the store and opened on the retry, inside the runtime
    // (XChaCha20-Poly1305 from @noble/ciphers for an answer this small).
    name: 'idempotency: a create retried with its Idempotency-Key is replayed, not run again',
    run: async (ctx) => {
      const headers = { ...bearer(saved(ctx, 'alice')), 'idempotency-key': '"conformance-create-1"' };
      const first = await exchange(ctx, 'tenants', 'POST', '/tenants/acme/posts', { status: 201, type: JSON_TYPE }, { json: { title: 'Idempotent post' }, headers });
      const retry = await exchange(ctx, 'tenants', 'POST', '/tenants/acme/posts', { status: 201, type: JSON_TYPE }, { json: { title: 'Idempotent post' }, headers });
      expect([retry.answer.headers.get('idempotent-replayed'), retry.answer.text], `${ctx.target.name}: the retry gets the first answer, replayed`).toEqual(['true', first.answer.text]);
      return [first.normalised, retry.normalised];
    },
  },
];

// Bytes a lossy decoder would turn into U+FFFD (issue 41): never in UTF-8, an overlong "/", a
// truncated "€", an encoded surrogate.
const MALFORMED_UTF8: readonly (readonly [string, readonly number[]])[] = [
  ['FF FE', [0xff, 0xfe]],
  ['C0 AF', [0xc0, 0xaf]],
  ['E2 82', [0xe2, 0x82]],
  ['ED A0 80', [0xed, 0xa0, 0x80]],
];

/** `{"title":"a<bytes>b"}` as bytes. */
function titled(inner: readonly number[]): Uint8Array {
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode('{"title":"a'), ...inner, ...encoder.encode('b"}')]);
}

/** The ws:// address of a path on one of the runtime's apps. */
function socketUrl(ctx: CheckContext, app: 'site' | 'tenants', path: string): string {
  return `${ctx.target.urls[app].replace(/^http/, 'ws')}${path}`;
}

/** One step of a socket session, in the form the suite compares across runtimes. */
function socketExchange(request: string, ...seen: unknown[]): Exchange {
  const body = seen.map((item) => (item instanceof Uint8Array ? [...item] : typeof item === 'string' && item.startsWith('{') ? JSON.parse(item) : item));
  return { request: `WS ${request}`, status: 0, headers: {}, body };
}

/** An upgrade the server must refuse: its status and problem body, normalised. */
async function refusedUpgrade(ctx: CheckContext, app: 'site' | 'tenants', path: string, options: { headers?: Record<string, string> }): Promise<Exchange> {
  const outcome = await openSocket(socketUrl(ctx, app, path), options).then(
    (socket: SocketRecord) => {
      socket.ws.close();
      throw new Error(`${ctx.target.name}: the upgrade to ${path} was accepted`);
    },
    (error: { status?: number; body?: string; headers?: Record<string, string> }) => error,
  );
  const json = outcome.body === undefined || outcome.body === '' ? undefined : (JSON.parse(outcome.body) as unknown);
  return { request: `UPGRADE ${path}`, status: outcome.status ?? 0, headers: { 'content-type': String(outcome.headers?.['content-type']) }, body: normaliseValue(json) };
}
