import { compression, cors, etag, readMultipart, requestId, securityHeaders, sse } from '../../lib/middleware/index.js';
import { z } from 'zod';
import { BadRequestException, createApp, defineController, defineModule, get, jsonAnswer, post, setCookie, ws, type App, type Middleware } from '../../lib/index.js';
import { hashPassword, PasswordHashFormatError, verifyPassword } from '../../lib/auth/index.js';
import { serveOpenApi } from '../../lib/openapi/index.js';
import { createBlogModule } from '../blog/blog-module.js';
import { BLOG_OPENAPI_OPTIONS } from '../blog/openapi.js';
import { GreetingModule } from '../greeting/greeting-module.js';
import { readTenantsConfig } from '../tenants/config.js';
import { createTenantsModule } from '../tenants/tenants-module.js';
import { tenantsSecurityHeaders } from '../tenants/security-headers.js';

const PasswordCheck = z.object({
  password: z.string().min(1).max(1024),
  /** A PHC string made elsewhere (another runtime, another backend) that must verify here. */
  storedHash: z.string().min(1).max(512),
});

/**
 * `POST /password/check`: hashes and verifies inside the runtime that serves the request, so
 * the Argon2id backend this runtime picks (native addon, WebAssembly or plain JavaScript) is
 * exercised, and checks that a hash written elsewhere verifies here. The answer holds no hash or
 * salt. A demonstration route: it lets anyone spend ~4 hashes of CPU per request.
 *
 * @example
 * defineModule({ name: 'Probe', controllers: [passwordCheckController] });
 * // POST /password/check {"password":"pw","storedHash":"$argon2id$v=19$..."} -> 200
 * // { format: '$argon2id$v=19$m=19456,t=2,p=1$', verifiesOwnHash: true, rejectsWrongPassword: true, verifiesStoredHash: true }
 */
export const passwordCheckController = defineController({
  name: 'PasswordCheckController',
  prefix: '/password',
  routes: () => ({
    check: post('/check', { body: PasswordCheck }, async (ctx) => {
      // First, so that a malformed stored hash is refused before any hashing work.
      const verifiesStoredHash = await verifyPassword(ctx.body.password, ctx.body.storedHash).catch((error: unknown) => {
        // A malformed hash is the caller's mistake here, not a server failure.
        if (error instanceof PasswordHashFormatError) throw new BadRequestException(error.message);
        throw error;
      });
      const fresh = await hashPassword(ctx.body.password);
      return {
        // `$argon2id$v=19$m=…,t=…,p=…$`: the algorithm and cost, without the random salt and hash.
        format: `${fresh.split('$').slice(0, 4).join('$')}$`,
        verifiesOwnHash: await verifyPassword(ctx.body.password, fresh),
        rejectsWrongPassword: !(await verifyPassword(`${ctx.body.password}!`, fresh)),
        verifiesStoredHash,
      };
    }),
  }),
});

/**
 * The greeting, the blog (CRUD) and `POST /password/check`, with `GET /openapi.json`.
 *
 * @example
 * const site = await createSiteApp();
 * const res = await site.fetch(new Request('http://localhost/hello/Ada'));
 */
export async function createSiteApp(): Promise<App> {
  const SiteModule = defineModule({
    name: 'RuntimeSiteModule',
    imports: [GreetingModule, createBlogModule()],
    controllers: [passwordCheckController, httpKitController],
  });
  // The everyday middleware, on web-standard APIs only (CompressionStream, crypto.randomUUID), so
  // the same checks hold on every runtime.
  const site = await createApp(SiteModule, {
    origins: [CONFORMANCE_ORIGIN],
    middleware: [strayUpgrade, requestId(), securityHeaders(), cors(), compression(), etag()],
  });
  serveOpenApi(site, '/openapi.json', { ...BLOG_OPENAPI_OPTIONS, title: 'Tessera runtime conformance' });
  return site;
}

/**
 * `GET /kit/no-upgrade`: a 101 that no WebSocket route accepted, so nothing can complete it; every
 * runtime must answer it the same way (501), as it answers any upgrade nothing completes.
 */
const strayUpgrade: Middleware = (ctx, next) => (ctx.path === '/kit/no-upgrade' ? { status: 101, headers: {}, body: null } : next());

/** The page origin the conformance checks send CORS requests from. */
export const CONFORMANCE_ORIGIN = 'http://conformance.test';

/**
 * Cookies, uploads, an event stream and a WebSocket, so that the conformance checks see them on
 * every runtime. The socket (`/kit/socket`) takes JSON `{ text }` (published back to every socket
 * on the `kit` topic as `{ echo }`) and bytes (sent back as they came), at most 1 024 bytes.
 *
 * @example
 * await site.fetch(new Request('http://localhost/kit/cookies')); // two Set-Cookie headers
 */
export const httpKitController = defineController({
  name: 'HttpKitController',
  prefix: '/kit',
  routes: () => ({
    cookies: get('/cookies', () => setCookie(setCookie(jsonAnswer(200, { ok: true }), 'a', '1'), 'b', '2', { httpOnly: false })),
    upload: post('/upload', { bodyLimit: 1_000, status: 201 }, async (ctx) => {
      const file = (await readMultipart(ctx, { maxFiles: 1 })).get('file');
      return file instanceof File ? { name: file.name, size: file.size } : { name: null, size: 0 };
    }),
    socket: ws(
      '/socket',
      { message: z.object({ text: z.string() }), binary: true, maxMessageBytes: 1_024 },
      {
        open: async (conn) => {
          await conn.subscribe('kit');
          conn.send({ hello: conn.protocol ?? null });
        },
        message: (conn, data) => (data instanceof Uint8Array ? void conn.send(data) : conn.publish('kit', { echo: data.text })),
      },
    ),
    events: get('/events', (ctx) =>
      sse(ctx, async (stream) => {
        await stream.send({ event: 'hello', id: '1', data: { n: 1 } });
        stream.close();
      }),
    ),
  }),
});

/**
 * The authenticated multi-tenant app (sign-in, bearer tokens, API keys), configured from `env`
 * (`AUTH_SECRET`, `API_KEY_RATE_LIMIT`, ...; see examples/tenants/README.md). On Workers call it
 * inside `fetch`, not at module scope: hashing the demo passwords needs random salts, which
 * Workers refuse to generate at global scope.
 *
 * @example
 * const tenants = await createTenantsApp({ AUTH_SECRET: 'at-least-32-bytes-of-secret-material' });
 */
export async function createTenantsApp(env: Readonly<Record<string, string | undefined>>): Promise<App> {
  const config = readTenantsConfig(env);
  // The headers the tenants app sends in production (main.ts): nosniff, framing, referrer, the API's CSP, HSTS over https.
  return createApp(createTenantsModule(config), { middleware: [tenantsSecurityHeaders(config)] });
}

/**
 * Both apps every runtime entry serves, on two ports. Two apps, not one, because the tenants app
 * protects every route it has (`protectAllRoutes`), which would put the public blog behind a login.
 *
 * @example
 * const { site, tenants } = await createRuntimeApps(process.env);
 * await serve(site, { port: 3000 });
 * await serve(tenants, { port: 3001 });
 */
export async function createRuntimeApps(env: Readonly<Record<string, string | undefined>>): Promise<{ readonly site: App; readonly tenants: App }> {
  const [site, tenants] = await Promise.all([createSiteApp(), createTenantsApp(env)]);
  return { site, tenants };
}

/**
 * Reads a port from the environment; 0 (any free port) when unset.
 *
 * @example
 * readPort(process.env, 'SITE_PORT'); // 0 unless SITE_PORT is set
 */
export function readPort(env: Record<string, string | undefined>, name: string): number {
  const value = env[name];
  const port = value === undefined || value === '' ? 0 : Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`${name} must be a port number, got ${value}`);
  return port;
}

/**
 * The one line every entry prints once both apps listen; the conformance suite waits for it.
 *
 * @example
 * console.log(readyLine({ site: 'http://127.0.0.1:3000', tenants: 'http://127.0.0.1:3001' }));
 */
export function readyLine(urls: { site: string; tenants: string }): string {
  return `tessera-runtime ready ${JSON.stringify(urls)}`;
}
