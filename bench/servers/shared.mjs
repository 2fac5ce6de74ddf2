// What every benchmark server serves, identically: scenarios, the route set, the fixed post and
// the JWT secret. Plain ESM so every server (and the harness) imports it. The zod schemas are in
// schemas.mjs, imported only by the scenarios that validate, so that the hello server (and its
// cold start) loads no more than a hello app needs.

/** HS256 secret of the `GET /me` scenario (>= 32 bytes). */
export const JWT_SECRET = 'tessera-bench-secret-0123456789-abcdefghijklmnop';

/**
 * The 50 decoy parametric routes registered before `GET /posts/:id` in the `routes` scenario,
 * in this order, in every framework: `/r0/:id`, `/r1/:id/x`, `/r2/:id`, ... `/r49/:id/x`.
 */
export const DECOY_ROUTES = Array.from({ length: 50 }, (_, i) => ({
  index: i,
  prefix: `r${i}`,
  suffix: i % 2 === 1 ? 'x' : undefined,
  path: i % 2 === 1 ? `/r${i}/:id/x` : `/r${i}/:id`,
}));

/** The answer of `GET /posts/:id` (the id comes from the path). */
export function fixedPost(id) {
  return { id, title: 'Hello', body: 'World', createdAt: '2026-01-01T00:00:00.000Z' };
}

/** The answer of a decoy route. */
export function decoyAnswer(index, id) {
  return { route: index, id };
}

/** A path parameter URL-decoded, or undefined when it is not valid percent-encoding (the raw servers' 400). */
export function decodeParam(raw) {
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return undefined;
  }
}

let counter = 0;
/** Creates a post from validated input (in-memory counter; the posts themselves are not kept). */
export function createPost(input) {
  counter += 1;
  return { id: String(counter), title: input.title, body: input.body, createdAt: new Date().toISOString() };
}

// A Worker (workerd, no nodejs_compat) has no `process`: its scenario comes from a binding.
const env = globalThis.process?.env ?? {};
/** Scenario of this server process, from `BENCH_SCENARIO` (hello | create | routes | me | tenants-*). */
export const scenario = env.BENCH_SCENARIO ?? 'hello';
/** Port from `PORT`. */
export const port = Number(env.PORT ?? 3000);
export const host = '127.0.0.1';

/** Tells the harness the server listens; SIGTERM exits normally (so `--cpu-prof` can write). */
export function ready() {
  process.on('SIGTERM', () => process.exit(0));
  process.stdout.write('ready\n');
}
