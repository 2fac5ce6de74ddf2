// `npm run bench`: Tessera against raw node:http, Hono (@hono/node-server), Fastify and Express.
// Method (see bench/README.md and docs/toolchain.md "Measuring"): a fresh server process per
// framework per round, frameworks interleaved in an order rotated every round, the server pinned
// to core 1 and the load generator to core 0, median over rounds with min–max, ratios.
//
// The tenants scenarios (issue 5: tenants-bearer, tenants-key-0, tenants-key-60) are Tessera only
// and interleaved with each other instead of with frameworks.
//
//   node bench/run.mjs                       full run, tables + bench/results/latest.{json,md}
//   node bench/run.mjs profile [scenario]    CPU profile of the Tessera server under load
//   node bench/run.mjs render                latest.md again from latest.json (no measurement)
//
// Env: BENCH_ROUNDS (5), BENCH_DURATION (s, 5), BENCH_WARMUP (s, 1), BENCH_CONNECTIONS (50),
// BENCH_SCENARIOS (hello,create,routes,me,tenants-bearer,tenants-key-0,tenants-key-60),
// BENCH_FRAMEWORKS (raw,hono,fastify,express,tessera), BENCH_COLD_ROUNDS (10),
// BENCH_LOAD (auto | wrk | autocannon; auto = wrk when installed), BENCH_MERGE (1: a full-method
// run of some scenarios is merged into latest.* instead of going to partial.*), BENCH_RESULTS
// (the results' file name for a narrowed run, default partial), BENCH_BASELINE (a git ref, below).
// The OpenTelemetry variants (tessera-otel, tessera-sdk, fastify-sdk, hono-sdk) are named in
// BENCH_FRAMEWORKS only: `npm run bench:otel`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

const benchDir = dirname(fileURLToPath(import.meta.url));
const root = dirname(benchDir);
const buildDir = join(benchDir, '.build');
const resultsDir = join(benchDir, 'results');

// ---------------------------------------------------------------------------------------------
// Configuration

const env = process.env;
const num = (name, fallback) => (env[name] !== undefined && env[name] !== '' ? Number(env[name]) : fallback);
const list = (name) => (env[name] ? env[name].split(',').map((s) => s.trim()).filter(Boolean) : undefined);

const config = {
  rounds: num('BENCH_ROUNDS', 5),
  duration: num('BENCH_DURATION', 5),
  warmup: num('BENCH_WARMUP', 1),
  slice: num('BENCH_SLICE', 1),
  connections: num('BENCH_CONNECTIONS', 50),
  coldRounds: num('BENCH_COLD_ROUNDS', 10),
};

/**
 * BENCH_BASELINE=<git ref>: Tessera as of that commit, built from its own bench/servers/tessera.ts,
 * joins the shared scenarios as the framework `baseline`, for an A/B of a change in one run.
 */
const baselineRef = process.env.BENCH_BASELINE || undefined;
const ALL_FRAMEWORKS = ['raw', 'hono', 'fastify', 'express', 'tessera', ...(baselineRef ? ['baseline'] : [])];
/**
 * OpenTelemetry variants (`npm run bench:otel`), named in BENCH_FRAMEWORKS only: the same server
 * file with BENCH_OTEL set (bench/servers/otel.mjs). `tessera-otel` is openTelemetry() with no SDK
 * registered (the A/B against `tessera` for the no-SDK cost); the `-sdk` ones start the SDK with
 * a batch OTLP exporter to the harness's sink, Fastify through @fastify/otel, Hono through @hono/otel.
 */
const OTEL_VARIANTS = {
  'tessera-otel': { base: 'tessera', otel: 'api', label: 'Tessera + openTelemetry(), no SDK' },
  'tessera-sdk': { base: 'tessera', otel: 'sdk', label: 'Tessera + openTelemetry() + SDK' },
  'fastify-sdk': { base: 'fastify', otel: 'sdk', label: 'Fastify + @fastify/otel + SDK' },
  'hono-sdk': { base: 'hono', otel: 'sdk', label: 'Hono + @hono/otel + SDK' },
};
/**
 * Validator variants (`npm run bench:validators`, issue 39), named in BENCH_FRAMEWORKS only: the
 * Tessera server with BENCH_VALIDATOR set, whose create route has a body and a response schema in
 * zod, valibot or ArkType (bench/servers/tessera-validators.ts). valibot's and ArkType's costs are
 * reported over zod's on the same route.
 */
const VALIDATOR_VARIANTS = {
  'tessera-zod': { base: 'tessera-zod', validator: 'zod', label: 'Tessera, zod body + response' },
  'tessera-valibot': { base: 'tessera-zod', validator: 'valibot', label: 'Tessera, valibot body + response' },
  'tessera-arktype': { base: 'tessera-zod', validator: 'arktype', label: 'Tessera, ArkType body + response' },
};
/**
 * The fetch runtimes (issue 28): each framework served by the runtime's own server, one pinned
 * process per round like the Node ones, measured beside the others of its runtime. Bun: raw
 * `Bun.serve`, Elysia, Hono, Tessera (`bunServer`); Deno: raw `Deno.serve`, Hono, Tessera
 * (`denoServer`); workerd (the runtime tests' local binary): Hono and Tessera as module Workers.
 */
const binaryOf = (...candidates) => candidates.map((c) => join(root, c)).find((path) => existsSync(path));
const RUNTIME_BINARY = {
  bun: binaryOf('node_modules/.bin/bun', 'node_modules/@oven/bun-linux-x64/bin/bun'),
  deno: binaryOf('node_modules/.bin/deno'),
  workerd: binaryOf('node_modules/.bin/workerd'),
};
const FETCH_FRAMEWORKS = {
  'bun-raw': { runtime: 'bun', label: 'raw Bun.serve', file: join(benchDir, 'servers/fetch-raw.mjs') },
  'bun-elysia': { runtime: 'bun', label: 'Elysia', file: join(benchDir, 'servers/elysia.mjs'), needs: 'elysia' },
  'bun-hono': { runtime: 'bun', label: 'Hono', file: join(benchDir, 'servers/hono-fetch.mjs') },
  'bun-tessera': { runtime: 'bun', label: 'Tessera', file: join(buildDir, 'tessera-fetch.mjs') },
  // The same app with Bun's native routes left out (toFetchHandler alone): what native routing saves.
  'bun-tessera-js': { runtime: 'bun', label: 'Tessera, JS routing', file: join(buildDir, 'tessera-fetch.mjs'), env: { TESSERA_BENCH_ROUTING: 'js' } },
  'deno-raw': { runtime: 'deno', label: 'raw Deno.serve', file: join(benchDir, 'servers/fetch-raw.mjs') },
  'deno-hono': { runtime: 'deno', label: 'Hono', file: join(benchDir, 'servers/hono-fetch.mjs') },
  'deno-tessera': { runtime: 'deno', label: 'Tessera', file: join(buildDir, 'tessera-fetch.mjs') },
  'workerd-hono': { runtime: 'workerd', label: 'Hono', file: join(buildDir, 'hono-worker.js') },
  'workerd-tessera': { runtime: 'workerd', label: 'Tessera', file: join(buildDir, 'tessera-worker.js') },
};
/** Why a fetch framework cannot run here (its runtime's binary or its package is missing), or undefined. */
function fetchUnavailable(name) {
  const spec = FETCH_FRAMEWORKS[name];
  if (RUNTIME_BINARY[spec.runtime] === undefined) return `${spec.runtime} is not installed (node_modules/.bin/${spec.runtime})`;
  if (spec.needs !== undefined && !existsSync(join(root, 'node_modules', spec.needs))) return `${spec.needs} is not installed`;
  return undefined;
}
const FETCH_AVAILABLE = Object.keys(FETCH_FRAMEWORKS).filter((name) => fetchUnavailable(name) === undefined);
const runtimeOf = (framework) => FETCH_FRAMEWORKS[framework]?.runtime ?? 'node';
const RUNTIME_TITLE = { node: 'Node', bun: 'Bun', deno: 'Deno', workerd: 'workerd' };
const KNOWN_FRAMEWORKS = [...ALL_FRAMEWORKS, ...Object.keys(OTEL_VARIANTS), ...Object.keys(VALIDATOR_VARIANTS), ...Object.keys(FETCH_FRAMEWORKS)];
const LABEL = {
  raw: 'raw node:http',
  hono: 'Hono',
  fastify: 'Fastify',
  express: 'Express',
  tessera: 'Tessera',
  baseline: `Tessera @${baselineRef}`,
  ...Object.fromEntries(Object.entries(OTEL_VARIANTS).map(([name, v]) => [name, v.label])),
  ...Object.fromEntries(Object.entries(VALIDATOR_VARIANTS).map(([name, v]) => [name, v.label])),
  ...Object.fromEntries(Object.entries(FETCH_FRAMEWORKS).map(([name, v]) => [name, v.label])),
};
const SERVER_FILE = {
  raw: join(benchDir, 'servers/raw.mjs'),
  hono: join(benchDir, 'servers/hono.mjs'),
  fastify: join(benchDir, 'servers/fastify.mjs'),
  express: join(benchDir, 'servers/express.mjs'),
  tessera: join(buildDir, 'tessera.mjs'),
  baseline: join(buildDir, 'baseline', 'tessera.mjs'),
};
for (const [name, v] of Object.entries(OTEL_VARIANTS)) SERVER_FILE[name] = SERVER_FILE[v.base];
for (const name of Object.keys(VALIDATOR_VARIANTS)) SERVER_FILE[name] = SERVER_FILE.tessera;
for (const [name, v] of Object.entries(FETCH_FRAMEWORKS)) SERVER_FILE[name] = v.file;
/** The framework a variant is measured against (itself for the others). */
const baseOf = (framework) => OTEL_VARIANTS[framework]?.base ?? VALIDATOR_VARIANTS[framework]?.base ?? framework;

/**
 * API_KEY_RATE_LIMIT of the tenants scenarios: far above what one server process can answer in
 * its life (~100k requests), so the limiter never answers 429, yet it still counts every keyed
 * request (its cost is in the key figures). The window stays the app's default, 60 s.
 */
const TENANTS_RATE_LIMIT = 1_000_000_000;
const POST_BODY = JSON.stringify({ title: 'Hello', body: 'World' });
/**
 * The scenarios. `frameworks` is the default set (GET /me is against Hono's and Fastify's JWT
 * middleware, per issue 4; Express is left out to keep the run near 10 minutes).
 * `check` validates one response of each server before it is measured.
 */
/** The counter the tenants server counts API-key requests with: in process, Redis, or PostgreSQL. */
const COUNTER_LABEL = { memory: 'in-memory counter', redis: 'RedisRateLimitCounter', postgres: 'PostgresRateLimitCounter' };

const SCENARIOS = {
  hello: {
    title: 'GET /hello/:name',
    method: 'GET',
    path: '/hello/bench',
    frameworks: [...ALL_FRAMEWORKS, ...FETCH_AVAILABLE],
    checks: [{ path: '/hello/x', status: 200, json: { message: 'Hello, x!' } }],
  },
  create: {
    title: 'POST /posts (zod validation)',
    method: 'POST',
    path: '/posts',
    body: POST_BODY,
    headers: { 'content-type': 'application/json' },
    frameworks: [...ALL_FRAMEWORKS, ...FETCH_AVAILABLE],
    checks: [
      { method: 'POST', path: '/posts', body: POST_BODY, headers: { 'content-type': 'application/json' }, status: 201, match: { title: 'Hello', body: 'World' } },
      { method: 'POST', path: '/posts', body: '{"title":"T"}', headers: { 'content-type': 'application/json' }, status: 201, match: { title: 'T', body: '' } },
      { method: 'POST', path: '/posts', body: '{"body":"no title"}', headers: { 'content-type': 'application/json' }, status: 400 },
    ],
  },
  routes: {
    title: 'GET /posts/:id among 50 other parametric routes',
    method: 'GET',
    path: '/posts/42',
    frameworks: [...ALL_FRAMEWORKS, ...FETCH_AVAILABLE],
    checks: [
      { path: '/posts/42', status: 200, json: { id: '42', title: 'Hello', body: 'World', createdAt: '2026-01-01T00:00:00.000Z' } },
      { path: '/r0/7', status: 200, json: { route: 0, id: '7' } },
      { path: '/r49/7/x', status: 200, json: { route: 49, id: '7' } },
      { path: '/r49/7', status: 404 },
    ],
  },
  me: {
    title: 'GET /me (bearer HS256 verification)',
    method: 'GET',
    path: '/me',
    auth: true,
    frameworks: ['raw', 'hono', 'fastify', 'tessera'],
    checks: [
      { path: '/me', auth: true, status: 200, json: { sub: 'user-1', roles: ['reader'] } },
      { path: '/me', status: 401 },
      { path: '/me', auth: 'bad', status: 401 },
    ],
  },
  // Issue 5: the examples/tenants app (in-memory stores), Tessera only, the same read with a
  // bearer token and with an API key (record cache off, then 60 s). These three are measured
  // together, interleaved like the frameworks of one scenario, and reported as one table with
  // the key's CPU cost over the bearer path. Each server process signs in, creates a posts:read
  // key and one post at start and prints them (bench/servers/tessera-tenants.ts).
  'tenants-bearer': tenantsScenario('bearer', 0),
  'tenants-key-0': tenantsScenario('key', 0),
  'tenants-key-60': tenantsScenario('key', 60),
  // Issue 27: the same key request, its rate limit counted in Redis or PostgreSQL instead of in
  // process (servers started by scripts/redis and scripts/postgres for the run, on loopback).
  'tenants-key-redis': tenantsScenario('key', 60, 'redis'),
  'tenants-key-postgres': tenantsScenario('key', 60, 'postgres'),
};

function tenantsScenario(credential, cacheSeconds, counter = 'memory') {
  const path = '/tenants/acme/posts';
  const onePost = (json) => (Array.isArray(json) && json.length === 1 && json[0].title === 'Bench post' ? undefined : 'expected the one provisioned post');
  return {
    title: credential === 'bearer' ? `GET ${path}, bearer token (tenants app)` : `GET ${path}, API key, cacheSeconds ${cacheSeconds}, ${COUNTER_LABEL[counter]} (tenants app)`,
    counter,
    group: 'tenants',
    method: 'GET',
    path,
    credential,
    serverEnv: { API_KEY_CACHE_SECONDS: String(cacheSeconds), API_KEY_RATE_LIMIT: String(TENANTS_RATE_LIMIT), API_KEY_RATE_WINDOW_MS: '60000', BENCH_COUNTER: counter },
    expectConfig: { apiKeyCacheSeconds: cacheSeconds, apiKeyRateLimit: TENANTS_RATE_LIMIT },
    frameworks: ['tessera'],
    checks: [
      { path, credential: true, status: 200, expect: onePost },
      { path, status: 401 },
      { path, credential: 'bad', status: 401 },
      { path: '/tenants/globex/posts', credential: true, status: 404 },
      ...(credential === 'key' ? [{ method: 'POST', path, credential: true, body: '{"title":"T"}', headers: { 'content-type': 'application/json' }, status: 403 }] : []),
    ],
  };
}

const scenarioNames = list('BENCH_SCENARIOS') ?? Object.keys(SCENARIOS);
if (env.BENCH_RESULTS && !/^[a-z0-9-]+$/.test(env.BENCH_RESULTS)) die('BENCH_RESULTS is a file name: lower-case letters, digits and dashes');
for (const s of scenarioNames) if (!SCENARIOS[s]) die(`unknown scenario "${s}" (known: ${Object.keys(SCENARIOS).join(', ')})`);
const frameworkFilter = list('BENCH_FRAMEWORKS');
if (frameworkFilter) for (const f of frameworkFilter) if (!KNOWN_FRAMEWORKS.includes(f)) die(`unknown framework "${f}" (known: ${KNOWN_FRAMEWORKS.join(', ')})`);
if (frameworkFilter) for (const f of frameworkFilter) if (FETCH_FRAMEWORKS[f] && fetchUnavailable(f)) die(`${f}: ${fetchUnavailable(f)}`);
/** Frameworks of a scenario; BENCH_FRAMEWORKS may add any to the shared scenarios, never to a group's (Tessera only). */
const frameworksOf = (scenario) => {
  const own = SCENARIOS[scenario].frameworks;
  if (!frameworkFilter) return own;
  return (SCENARIOS[scenario].group ? own : KNOWN_FRAMEWORKS).filter((f) => frameworkFilter.includes(f));
};

function die(message) {
  console.error(`bench: ${message}`);
  process.exit(1);
}

// ---------------------------------------------------------------------------------------------
// Machine: pinning and the load tool

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const pinning = has('taskset') && cpus().length >= 2;
const loadTool = (() => {
  const wanted = env.BENCH_LOAD ?? 'auto';
  if (wanted === 'autocannon') return 'autocannon';
  if (wanted === 'wrk' && !has('wrk')) die('BENCH_LOAD=wrk but wrk is not installed');
  return has('wrk') ? 'wrk' : 'autocannon';
})();
/**
 * argv prefix that pins a command to a core, or nothing when taskset is absent. (Raising the
 * priority was tried on a busy machine: nice -10 did not steady the figures, and SCHED_FIFO made
 * them far worse, since it starves the kernel threads that carry loopback traffic.)
 */
const pin = (core) => (pinning ? ['taskset', '-c', String(core)] : []);

function machine() {
  const cpuinfo = existsSync('/proc/cpuinfo') ? readFileSync('/proc/cpuinfo', 'utf8') : '';
  const model = /^model name\s*:\s*(.+)$/m.exec(cpuinfo)?.[1] ?? cpus()[0]?.model ?? 'unknown';
  const runtimes = {};
  for (const [runtime, binary] of Object.entries(RUNTIME_BINARY)) {
    if (binary === undefined) continue;
    try {
      runtimes[runtime] = execFileSync(binary, ['--version'], { encoding: 'utf8' }).trim().split('\n')[0].replace(/^(deno|workerd)\s+/, '');
    } catch {
      // Not runnable here: its frameworks report the failure.
    }
  }
  return { date: new Date().toISOString(), node: process.version, runtimes, cpu: model.trim(), cores: cpus().length, pinning, loadTool, loadavgAtStart: loadavg() };
}

/** 1-minute load average: a busy machine (other processes) makes every figure noisier. */
function loadavg() {
  try {
    return Number(readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Building the Tessera server (plain JS, so cold start pays no TypeScript loader)

async function buildTessera() {
  rmSync(buildDir, { recursive: true, force: true });
  mkdirSync(buildDir, { recursive: true });
  const esbuild = await import('esbuild');
  await esbuild.build({
    absWorkingDir: root,
    // tessera-fetch: the same app on Bun and Deno through their fetch servers.
    entryPoints: { tessera: 'bench/servers/tessera.ts', 'tessera-fetch': 'bench/servers/tessera-fetch.ts' },
    outdir: buildDir,
    bundle: true,
    splitting: true, // the auth scenario is a lazy chunk; the other scenarios never load it
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external', // zod, jose... load from node_modules, as with dist/ and as for the peers
    sourcemap: true, // for `profile`: maps the bundle back to lib/*.ts
    logLevel: 'warning',
    tsconfig: join(root, 'tsconfig.json'),
  });
  // The Workers, bundled whole as wrangler bundles a module worker.
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { 'tessera-worker': 'bench/servers/tessera-worker.ts', 'hono-worker': 'bench/servers/hono-worker.mjs' },
    outdir: buildDir,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    logLevel: 'warning',
    tsconfig: join(root, 'tsconfig.json'),
  });
  if (baselineRef) await buildBaseline(esbuild);
}

/**
 * Tessera at BENCH_BASELINE, from `git archive` into a temporary folder outside the repository (so
 * that neither tsc nor vitest sees a second copy of the sources); the bundle lands in .build, where
 * its external packages resolve from the repository's node_modules.
 */
async function buildBaseline(esbuild) {
  const source = mkdtempSync(join(tmpdir(), 'tessera-baseline-'));
  execFileSync('sh', ['-c', `git archive ${JSON.stringify(baselineRef)} lib examples bench/servers tsconfig.json | tar -x -C ${JSON.stringify(source)}`], { cwd: root });
  await esbuild.build({
    absWorkingDir: source,
    entryPoints: { tessera: 'bench/servers/tessera.ts' },
    outdir: join(buildDir, 'baseline'),
    bundle: true,
    splitting: true,
    outExtension: { '.js': '.mjs' },
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
    tsconfig: join(source, 'tsconfig.json'),
  });
  rmSync(source, { recursive: true, force: true });
}

// ---------------------------------------------------------------------------------------------
// HTTP helpers

function httpRequest(port, { method = 'GET', path, headers = {}, body }, timeoutMs = 2000) {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false, timeout: timeoutMs }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

let bearer;
async function makeToken() {
  const { SignJWT } = await import('jose');
  const { JWT_SECRET } = await import('./servers/shared.mjs');
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ sub: 'user-1', roles: ['reader'] })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setIssuedAt(now)
    .setExpirationTime(now + 6 * 3600)
    .sign(new TextEncoder().encode(JWT_SECRET));
}

function withAuth(headers, auth) {
  if (!auth) return headers;
  return { ...headers, authorization: `Bearer ${auth === 'bad' ? `${bearer.slice(0, -4)}AAAA` : bearer}` };
}

/** `bad` spoils the last 4 characters: a well-formed credential that fails verification. */
const spoil = (text, variant) => (variant === 'bad' ? `${text.slice(0, -4)}AAAA` : text);
/**
 * A request's headers: `auth` is the harness's own HS256 token (GET /me); `credential` is the
 * tenants server's (`credential: true` or `'bad'`), the token or the key it printed at start.
 */
function requestHeaders(scenario, server, { headers = {}, auth, credential }) {
  const withBearer = withAuth(headers, auth);
  if (!credential) return withBearer;
  const creds = server.credentials;
  if (!creds) throw new Error('the server printed no credentials');
  return SCENARIOS[scenario].credential === 'key'
    ? { ...withBearer, 'x-api-key': spoil(creds.apiKey, credential) }
    : { ...withBearer, authorization: `Bearer ${spoil(creds.accessToken, credential)}` };
}

function deepEqual(a, b) {
  return JSON.stringify(a) === JSON.stringify(b);
}

async function checkServer(scenario, server, timeoutMs) {
  const expected = SCENARIOS[scenario].expectConfig;
  if (expected) {
    const got = server.credentials?.config ?? {};
    for (const [k, v] of Object.entries(expected)) if (got[k] !== v) throw new Error(`server config ${k}=${got[k]}, expected ${v}`);
  }
  for (const c of SCENARIOS[scenario].checks) {
    const res = await httpRequest(server.port, { method: c.method, path: c.path, body: c.body, headers: requestHeaders(scenario, server, c) }, timeoutMs);
    const where = `${c.method ?? 'GET'} ${c.path}`;
    if (res.status !== c.status) throw new Error(`${where}: status ${res.status}, expected ${c.status}: ${res.text.slice(0, 200)}`);
    if (c.json || c.match) {
      if (!String(res.headers['content-type']).startsWith('application/json')) throw new Error(`${where}: content-type ${res.headers['content-type']}`);
      const json = JSON.parse(res.text);
      if (c.json && !deepEqual(json, c.json)) throw new Error(`${where}: body ${res.text}, expected ${JSON.stringify(c.json)}`);
      if (c.match) for (const [k, v] of Object.entries(c.match)) if (json[k] !== v) throw new Error(`${where}: ${k}=${json[k]}, expected ${v}`);
    }
    if (c.expect) {
      const problem = c.expect(JSON.parse(res.text));
      if (problem) throw new Error(`${where}: ${problem}: ${res.text.slice(0, 200)}`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Server processes

// Below Linux's ephemeral range (32768+), so no client socket of the load generator can hold the
// port; rotated so that a server never binds a port whose previous owner just died.
let nextPort = 21100;
const takePort = () => {
  nextPort = nextPort >= 21399 ? 21100 : nextPort + 1;
  return nextPort;
};

/** Spawns a fresh server pinned to core 1; resolves once it printed "ready" (retries a port in use). */
async function startServer(framework, scenario, options = {}) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnServer(framework, scenario, options);
    } catch (error) {
      if (attempt >= 3 || options.port !== undefined || !/EADDRINUSE/.test(error.message)) throw error;
    }
  }
}

/** The command that serves `framework`: Node (with `nodeArgs`), Bun, Deno, or workerd with a config for this port. */
function serverCommand(framework, scenario, port, nodeArgs) {
  const runtime = runtimeOf(framework);
  const file = SERVER_FILE[framework];
  if (runtime === 'bun') return [RUNTIME_BINARY.bun, file];
  if (runtime === 'deno') return [RUNTIME_BINARY.deno, 'run', '--allow-all', '--no-lock', file];
  if (runtime === 'workerd') return [RUNTIME_BINARY.workerd, 'serve', workerdConfig(framework, scenario, port)];
  return [process.execPath, ...nodeArgs, file];
}

/** A one-worker workerd config serving the framework's bundle on 127.0.0.1:port, the scenario as a binding. */
function workerdConfig(framework, scenario, port) {
  const file = join(buildDir, `workerd-${framework}-${port}.capnp`);
  writeFileSync(
    file,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "bench", worker = .bench)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "bench")],
);
const bench :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "${relative(buildDir, SERVER_FILE[framework])}")],
  compatibilityDate = "2025-11-01",
  bindings = [(name = "BENCH_SCENARIO", text = "${scenario}")],
);
`,
  );
  return file;
}

function spawnServer(framework, scenario, { nodeArgs = [], port = takePort(), waitReady = true, prefix = [], readyMs = 15_000 } = {}) {
  const child = spawn(...argv([...pin(1), ...prefix, ...serverCommand(framework, scenario, port, nodeArgs)]), {
    cwd: root,
    env: { ...env, ...SCENARIOS[scenario]?.serverEnv, ...otelEnv(framework), ...validatorEnv(framework), ...FETCH_FRAMEWORKS[framework]?.env, PORT: String(port), BENCH_SCENARIO: scenario, NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const server = { child, port, exited, stderr: () => stderr };
  if (!waitReady) return Promise.resolve(server);
  if (runtimeOf(framework) === 'workerd') return untilAnswering(server, framework, scenario);
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`no "ready" within ${readyMs / 1000} s`)), readyMs);
    const fail = (error) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${LABEL[framework]} (${scenario}): ${error.message}\n${stderr.trim()}`));
    };
    // Line by line: `credentials {json}` (tenants scenarios) comes before `ready`, and a token
    // or key could contain the letters "ready".
    child.stdout.on('data', (d) => {
      out += d;
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        const line = out.slice(0, nl).trim();
        out = out.slice(nl + 1);
        if (line.startsWith('credentials ')) {
          try {
            server.credentials = JSON.parse(line.slice('credentials '.length));
          } catch {
            fail(new Error('unreadable credentials line'));
          }
        } else if (line === 'ready') {
          clearTimeout(timer);
          resolve(server);
        }
      }
    });
    exited.then(({ code, signal }) => fail(new Error(`exited (${code ?? signal}) before ready`)));
  });
}

function argv(parts) {
  return [parts[0], parts.slice(1)];
}

/**
 * Polls a server's `path` every `intervalMs` until an answer passes `accept`; rejects when the
 * process exits or after 15 s. Cold starts time it; workerd, which prints no ready line, waits on it.
 */
async function pollServer(server, path, accept, intervalMs) {
  const deadline = performance.now() + 15_000;
  for (;;) {
    if (server.child.exitCode !== null || server.child.signalCode !== null) throw new Error(`exited: ${server.stderr().trim()}`);
    if (performance.now() > deadline) throw new Error('no answer within 15 s');
    try {
      if (accept(await httpRequest(server.port, { path }, 1000))) return;
    } catch {
      // not listening yet
    }
    await sleep(intervalMs);
  }
}

/** workerd prints no ready line: the server is ready once its socket answers a request (any status). */
async function untilAnswering(server, framework, scenario) {
  try {
    await pollServer(server, '/', () => true, 100);
    return server;
  } catch (error) {
    await stopServer(server);
    throw new Error(`${LABEL[framework]} (${scenario}): ${error.message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// OpenTelemetry variants: the collector end and each server's environment

/** What the OTLP sink received: export requests and bytes, per signal. */
const otlpReceived = { traces: { requests: 0, bytes: 0 }, metrics: { requests: 0, bytes: 0 } };
let otlpPort;

/**
 * A collector stand-in on loopback, in the harness (on the load generator's core, so its CPU is
 * never counted as the server's): reads each OTLP/HTTP export and answers an empty protobuf
 * response, as a collector does, so the servers' exporters pay their full cost (serialisation,
 * the HTTP request) and nothing else.
 */
async function startOtlpSink() {
  const { createServer } = await import('node:http');
  const sink = createServer((req, res) => {
    const signal = req.url?.includes('/v1/metrics') ? 'metrics' : 'traces';
    otlpReceived[signal].requests += 1;
    req.on('data', (chunk) => (otlpReceived[signal].bytes += chunk.length));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
  });
  await new Promise((resolve) => sink.listen(0, '127.0.0.1', resolve));
  sink.unref();
  otlpPort = sink.address().port;
}

/** BENCH_OTEL for a variant and, with the SDK, the SDK's standard environment aimed at the sink. */
function otelEnv(framework) {
  const variant = OTEL_VARIANTS[framework];
  if (variant === undefined) return { BENCH_OTEL: 'none' };
  if (variant.otel === 'api') return { BENCH_OTEL: 'api' };
  return {
    BENCH_OTEL: 'sdk',
    OTEL_TRACES_EXPORTER: 'otlp',
    OTEL_METRICS_EXPORTER: 'otlp',
    OTEL_LOGS_EXPORTER: 'none',
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${otlpPort}`,
    OTEL_METRIC_EXPORT_INTERVAL: '5000',
  };
}

/** BENCH_VALIDATOR for a validator variant (the Tessera server's create route then uses it). */
function validatorEnv(framework) {
  const variant = VALIDATOR_VARIANTS[framework];
  return variant === undefined ? {} : { BENCH_VALIDATOR: variant.validator };
}

/** The range of a variant's per-round CPU ratios over its base's same rounds, as `; per-round ratios a-b` (empty without rounds). */
function pairedRatioRange(variant, base) {
  const paired = variant.rounds
    .map((r, i) => ratio(r.cpuUsPerRequest, base.rounds[i]?.cpuUsPerRequest))
    .filter(Number.isFinite)
    .sort((a, b) => a - b);
  return paired.length ? `; per-round ratios ${fmt(paired[0], 3)}-${fmt(paired.at(-1), 3)}` : '';
}

/**
 * What each variant costs over its base (same scenario, same run): CPU per request (medians of the
 * run), the difference, and the paired per-round ratios' range; `suffix` may add a verdict.
 */
function variantCost(results, variants, suffix = () => '') {
  const lines = [];
  for (const [scenario, summary] of Object.entries(results)) {
    for (const name of Object.keys(variants)) {
      const variant = summary[name];
      const base = summary[baseOf(name)];
      if (variant === undefined || base === undefined || name === baseOf(name)) continue;
      const cpuRatio = ratio(variant.cpuUs, base.cpuUs);
      const delta = variant.cpuUs - base.cpuUs;
      lines.push(`${scenario}: ${LABEL[name]} ${fmt(variant.cpuUs, 1)} µs vs ${LABEL[baseOf(name)]} ${fmt(base.cpuUs, 1)} µs CPU per request: ${fmt(cpuRatio, 3)}x, ${delta >= 0 ? '+' : ''}${fmt(delta, 1)} µs${pairedRatioRange(variant, base)}${suffix(name, cpuRatio)}`);
    }
  }
  return lines;
}

/** valibot's and ArkType's cost on the create route, over zod's (same route, body and response schemas). */
const validatorCost = (results) => variantCost(results, VALIDATOR_VARIANTS);

/** The instrumentation's cost, per variant measured with its base in the same scenario; `tessera-otel` has a target. */
const otelCost = (results) => variantCost(results, OTEL_VARIANTS, (name, cpuRatio) => (name === 'tessera-otel' ? ` ${cpuRatio <= 1.02 ? 'PASS' : 'FAIL'} (target <= 1.02)` : ''));

async function stopServer(server, signal = 'SIGKILL') {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  await server.exited;
}

function rssMB(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1]);
    return Number.isFinite(kb) ? kb / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Load generation (wrk when installed, else autocannon), pinned to core 0

function run(cmd, args) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${err || out}`))));
  });
}

function wrkScript(scenario, server) {
  const s = SCENARIOS[scenario];
  const file = join(buildDir, `wrk-${scenario}.lua`);
  const headers = requestHeaders(scenario, server, { headers: s.headers, auth: s.auth, credential: Boolean(s.credential) });
  const lua = [
    `wrk.method = ${JSON.stringify(s.method)}`,
    ...(s.body ? [`wrk.body = ${JSON.stringify(s.body)}`] : []),
    ...Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`),
  ].join('\n');
  writeFileSync(file, `${lua}\n`);
  return file;
}

const UNIT_MS = { us: 1e-3, ms: 1, s: 1000, m: 60_000 };
function parseWrk(out) {
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  const p99m = /^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$/m.exec(out);
  const non2xx = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const sock = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const errors = sock ? sock.slice(1).reduce((a, b) => a + Number(b), 0) : 0;
  const total = Number(/(\d+) requests in /.exec(out)?.[1]);
  if (!Number.isFinite(rps) || !p99m || !Number.isFinite(total)) throw new Error(`cannot parse wrk output:\n${out}`);
  return { rps, total, p99: Number(p99m[1]) * UNIT_MS[p99m[2]], non2xx, errors };
}

const CLK_TCK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system, all threads) a process has used so far, from /proc. */
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
    return (Number(fields[11]) + Number(fields[12])) / CLK_TCK; // utime, stime
  } catch {
    return NaN;
  }
}

/** Runs the load generator against a server once for `d` seconds and returns its parsed report. */
function loader(scenario, server) {
  const s = SCENARIOS[scenario];
  const url = `http://127.0.0.1:${server.port}${s.path}`;
  if (loadTool === 'wrk') {
    const script = wrkScript(scenario, server);
    // wrk takes whole seconds only.
    return async (d) => parseWrk(await run(...argv([...pin(0), 'wrk', '-t1', `-c${config.connections}`, `-d${Math.max(1, Math.round(d))}s`, '--latency', '-s', script, url])));
  }
  const options = { url, method: s.method, headers: requestHeaders(scenario, server, { headers: s.headers, auth: s.auth, credential: Boolean(s.credential) }), body: s.body, connections: config.connections };
  return async (d) => JSON.parse((await run(...argv([...pin(0), process.execPath, join(benchDir, 'load-autocannon.mjs'), JSON.stringify({ ...options, duration: d })]))).trim().split('\n').pop());
}

/** One measured stretch of load: the load generator's report plus the server's CPU seconds over it. */
async function measureSlice(once, pid, d) {
  const cpu0 = pid === undefined ? NaN : cpuSeconds(pid);
  const r = await once(d);
  const cpu = pid === undefined ? NaN : cpuSeconds(pid) - cpu0;
  return { ...r, cpu, seconds: r.total / r.rps };
}

/**
 * Warm-up, then the measured load in one stretch (the profiler's use). Besides req/s and p99,
 * reports the server's CPU time per request and how busy its core was: a server below ~100% busy
 * was not the bottleneck (the load generator or another process on the machine was), and CPU
 * time per request still compares frameworks when req/s cannot.
 */
async function load(scenario, server, duration, warmup) {
  const once = loader(scenario, server);
  if (warmup > 0) await once(warmup);
  const r = await measureSlice(once, server.child.pid, duration);
  return { ...r, cpuUs: (r.cpu * 1e6) / r.total, busy: r.cpu / r.seconds };
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

function median(xs) {
  const s = xs.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
const fmtInt = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : 'n/a');
const fmt = (x, d = 1) => (Number.isFinite(x) ? x.toFixed(d) : 'n/a');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);

function textTable(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
function mdTable(headers, rows) {
  return [`| ${headers.join(' | ')} |`, `|${headers.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const LOAD_HEADERS = ['framework', 'req/s (median)', 'min–max', '× raw', '× Fastify', '× Hono', 'p99 ms', 'RSS MB', 'CPU µs/req', 'server busy'];
function loadRows(summary) {
  const base = (f) => summary[f]?.rps;
  return Object.entries(summary).map(([f, s]) => [
    LABEL[f],
    fmtInt(s.rps),
    `${fmtInt(s.rpsMin)}–${fmtInt(s.rpsMax)}`,
    fmt(ratio(s.rps, base('raw')), 2),
    fmt(ratio(s.rps, base('fastify')), 2),
    fmt(ratio(s.rps, base('hono')), 2),
    fmt(s.p99, 2),
    fmt(s.rss, 0),
    fmt(s.cpuUs, 1),
    Number.isFinite(s.busy) ? `${Math.round(100 * s.busy)}%` : 'n/a',
  ]);
}
/** The frameworks of one runtime in a scenario's results. */
const onRuntime = (summary, runtime) => Object.fromEntries(Object.entries(summary).filter(([f]) => runtimeOf(f) === runtime));
const FETCH_HEADERS = ['framework', 'req/s (median)', 'min–max', 'CPU µs/req', 'CPU ÷ raw', 'CPU ÷ Hono', 'CPU ÷ Elysia', 'p99 ms', 'RSS MB', 'server busy'];
/** A fetch runtime's table: CPU per request against that runtime's raw server, Hono and (Bun) Elysia. */
function fetchRows(summary, runtime) {
  const cpu = (name) => summary[`${runtime}-${name}`]?.cpuUs;
  return Object.entries(summary).map(([f, s]) => [
    LABEL[f],
    fmtInt(s.rps),
    `${fmtInt(s.rpsMin)}–${fmtInt(s.rpsMax)}`,
    fmt(s.cpuUs, 1),
    fmt(ratio(s.cpuUs, cpu('raw')), 2),
    fmt(ratio(s.cpuUs, cpu('hono')), 2),
    fmt(ratio(s.cpuUs, cpu('elysia')), 2),
    fmt(s.p99, 2),
    fmt(s.rss, 0),
    Number.isFinite(s.busy) ? `${Math.round(100 * s.busy)}%` : 'n/a',
  ]);
}
const COLD_HEADERS = ['framework', 'cold start ms (median)', 'min–max', '× Hono'];
function coldRows(summary) {
  return Object.entries(summary).map(([f, s]) => [LABEL[f], fmt(s.ms, 0), `${fmt(s.min, 0)}–${fmt(s.max, 0)}`, fmt(ratio(s.ms, summary.hono?.ms), 2)]);
}

function summarize(rounds) {
  const ok = rounds.filter((r) => !r.error);
  const rps = ok.map((r) => r.rps);
  return {
    rps: median(rps),
    rpsMin: rps.length ? Math.min(...rps) : NaN,
    rpsMax: rps.length ? Math.max(...rps) : NaN,
    p99: median(ok.map((r) => r.p99)),
    rss: median(ok.map((r) => r.rssMB)),
    cpuUs: median(ok.map((r) => r.cpuUsPerRequest)),
    busy: median(ok.map((r) => r.busy)),
    rounds,
  };
}

// ---------------------------------------------------------------------------------------------
// The measurements

/**
 * Measures (scenario, framework) entries interleaved. Every round starts a fresh server process
 * for each entry (all pinned to the server core; the idle ones use no CPU), checks and warms each
 * up, then loads them in turns of `BENCH_SLICE` seconds, in an order rotated every round, until
 * each has had `BENCH_DURATION` seconds. On a machine whose speed drifts (a VM whose neighbours
 * come and go: one entry's figures moved 14 to 25 µs/req between consecutive rounds), turns of a
 * second put every entry through the same slow and fast stretches, where one block of five
 * seconds each would let a slow stretch land on one entry only. One scenario's frameworks are
 * such a list; so are the scenarios of a group (the tenants scenarios, Tessera only).
 */
async function measureEntries(title, entries) {
  const name = (e) => (entries.every((x) => x.scenario === entries[0].scenario) ? e.framework : e.scenario);
  const rounds = entries.map(() => []);
  const turns = Math.max(1, Math.round(config.duration / config.slice));
  console.log(`\n== ${title}`);
  for (let round = 0; round < config.rounds; round++) {
    const order = entries.map((_, k) => (k + round) % entries.length);
    const live = new Map(); // entry index -> { server, once, slices }
    const failed = (i, error) => {
      const { scenario, framework: f } = entries[i];
      rounds[i].push({ error: String(error.message ?? error) });
      console.error(`  ! ${LABEL[f]} (${scenario}): ${error.message ?? error}`);
    };
    try {
      for (const i of order) {
        const { scenario, framework: f } = entries[i];
        let server;
        try {
          server = await startServer(f, scenario);
          await checkServer(scenario, server);
          const once = loader(scenario, server);
          if (config.warmup > 0) await once(config.warmup);
          live.set(i, { server, once, slices: [] });
        } catch (error) {
          if (server) await stopServer(server);
          failed(i, error);
        }
      }
      for (let turn = 0; turn < turns; turn++) {
        for (const i of order) {
          const entry = live.get(i);
          if (entry === undefined) continue;
          try {
            const r = await measureSlice(entry.once, entry.server.child.pid, config.duration / turns);
            if (entry.server.child.exitCode !== null) throw new Error(`server died under load\n${entry.server.stderr()}`);
            if (!(r.total > 0)) throw new Error('no request answered under load');
            if (r.non2xx > 0 || r.errors > 0) throw new Error(`${r.non2xx} non-2xx responses and ${r.errors} socket errors under load`);
            entry.slices.push(r);
          } catch (error) {
            live.delete(i);
            await stopServer(entry.server);
            failed(i, error);
          }
        }
      }
      for (const [i, entry] of live) {
        const sum = (key) => entry.slices.reduce((total, r) => total + r[key], 0);
        const total = sum('total');
        const seconds = sum('seconds');
        const cpu = sum('cpu');
        rounds[i].push({
          rps: total / seconds,
          // The median of the turns' p99s: wrk reports percentiles per run, and runs cannot be merged.
          p99: median(entry.slices.map((r) => r.p99)),
          rssMB: rssMB(entry.server.child.pid),
          cpuUsPerRequest: (cpu * 1e6) / total,
          busy: cpu / seconds,
        });
      }
    } finally {
      await Promise.all([...live.values()].map((entry) => stopServer(entry.server)));
    }
    const line = entries.map((e, i) => {
      const r = rounds[i][round];
      return `${name(e)} ${r?.error === undefined && r !== undefined ? `${fmtInt(r.rps)} req/s ${fmt(r.cpuUsPerRequest, 1)} µs` : 'FAILED'}`;
    });
    console.log(`  round ${round + 1}/${config.rounds}: ${line.join(', ')}`);
  }
  return rounds.map(summarize);
}

/** One scenario: the frameworks of each runtime measured together (interleaved), one runtime after the other. */
async function measureScenario(scenario) {
  const result = {};
  for (const runtime of Object.keys(RUNTIME_TITLE)) {
    const frameworks = frameworksOf(scenario).filter((f) => runtimeOf(f) === runtime);
    if (frameworks.length === 0) continue;
    const base = frameworks.every((f) => VALIDATOR_VARIANTS[f]) ? 'POST /posts (body and response schemas: zod, valibot, ArkType)' : SCENARIOS[scenario].title;
    const title = runtime === 'node' ? base : `${base} on ${RUNTIME_TITLE[runtime]}`;
    const summaries = await measureEntries(title, frameworks.map((framework) => ({ scenario, framework })));
    frameworks.forEach((f, i) => (result[f] = summaries[i]));
  }
  return result;
}

/** The selected scenarios of a group, measured together; `results[scenario][framework]` as for the others. */
async function measureGroup(group, scenarios) {
  const entries = scenarios.flatMap((scenario) => frameworksOf(scenario).map((framework) => ({ scenario, framework })));
  const results = Object.fromEntries(scenarios.map((s) => [s, {}]));
  if (entries.length === 0) return results;
  const summaries = await measureEntries(GROUPS[group].title, entries);
  entries.forEach((e, i) => (results[e.scenario][e.framework] = summaries[i]));
  return results;
}

/** Spawn to first 200 of GET /hello/x, polling every 2 ms (a port in use is retried on another). */
async function coldStart(framework) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await coldStartOnce(framework);
    } catch (error) {
      if (attempt >= 3 || !/EADDRINUSE/.test(error.message)) throw error;
    }
  }
}

async function coldStartOnce(framework) {
  const port = takePort();
  const t0 = performance.now();
  const server = await startServer(framework, 'hello', { port, waitReady: false });
  try {
    await pollServer(server, '/hello/x', (res) => res.status === 200, 2);
    return performance.now() - t0;
  } finally {
    await stopServer(server);
  }
}

async function measureColdStarts() {
  const frameworks = frameworkFilter ? ALL_FRAMEWORKS.filter((f) => frameworkFilter.includes(f)) : ALL_FRAMEWORKS;
  const samples = Object.fromEntries(frameworks.map((f) => [f, []]));
  console.log(`\n== cold start (spawn to first 200 of GET /hello/x), ${config.coldRounds} rounds`);
  for (let round = 0; round < config.coldRounds; round++) {
    for (let i = 0; i < frameworks.length; i++) {
      const f = frameworks[(i + round) % frameworks.length];
      try {
        samples[f].push(await coldStart(f));
      } catch (error) {
        console.error(`  ! ${LABEL[f]}: ${error.message}`);
      }
      await sleep(50);
    }
  }
  const stats = (xs) => ({ ms: median(xs), min: xs.length ? Math.min(...xs) : NaN, max: xs.length ? Math.max(...xs) : NaN, samples: xs });
  return Object.fromEntries(frameworks.map((f) => [f, stats(samples[f])]));
}

// ---------------------------------------------------------------------------------------------
// The tenants group (issue 5): API key verification against the bearer path, one table

const GROUPS = {
  tenants: {
    title: 'Tenants app: GET /tenants/acme/posts, bearer token vs API key (Tessera, in-memory stores)',
    scenarios: ['tenants-bearer', 'tenants-key-0', 'tenants-key-60', 'tenants-key-redis', 'tenants-key-postgres'],
  },
};
const TENANTS_HEADERS = ['scenario', 'credential', 'req/s (median)', 'min–max', 'p99 ms', 'RSS MB', 'CPU µs/req', 'CPU min–max', 'server busy', 'Δ CPU µs/req vs bearer'];
const TENANTS_NOTE = [
  'What the key-minus-bearer difference contains: per request, the key path parses the key, computes the SHA-256 of its secret (@noble/hashes, JS), finds the record',
  '(cacheSeconds 0: `store.find` on the in-memory store, which structuredClones the record, then compiles it: hex digest, dates, networks; cacheSeconds 60: one Map hit on the compiled record),',
  'compares 32 bytes in constant time, checks revocation and expiry, parses the claims with the app\'s zod schema (every request: keys have no parsed-claims cache) and resolves a few promises;',
  `then the route's RequireScopes('posts:read') is checked (keys only: tokens are not held to scopes), the example's ApiKeyRateLimitGuard counts the request in its in-memory fixed window`,
  `(API_KEY_RATE_LIMIT ${TENANTS_RATE_LIMIT.toLocaleString('en-US')}: active, counting, never a 429), and \`touch\` runs once per process.`,
  'The bearer side is Tessera\'s JWT path with one token repeated: a verification-cache hit (expiry still checked) and the parsed claims reused, no HMAC, and the limiter skips tokens.',
  'So this is the cost of a key over a cached token on the same route (routing, tenancy and role guards, the post list, response validation and JSON are the same in all three).',
  'No database: with the PostgreSQL stores, cacheSeconds 0 adds a query per request, which this does not measure.',
].join(' ');

function tenantsCost(results) {
  const base = results['tenants-bearer']?.tessera;
  const costs = {};
  for (const s of ['tenants-key-0', 'tenants-key-60', 'tenants-key-redis', 'tenants-key-postgres']) {
    const key = results[s]?.tessera;
    if (!base || !key) continue;
    // Rounds are interleaved, so round i of each ran minutes apart at most: paired differences.
    const paired = key.rounds.map((r, i) => (r.error || base.rounds[i]?.error ? NaN : r.cpuUsPerRequest - base.rounds[i].cpuUsPerRequest)).filter(Number.isFinite);
    costs[s] = {
      cpuUs: key.cpuUs - base.cpuUs,
      pairedMin: paired.length ? Math.min(...paired) : NaN,
      pairedMedian: median(paired),
      pairedMax: paired.length ? Math.max(...paired) : NaN,
      relative: key.cpuUs / base.cpuUs - 1,
      rpsRatio: key.rps / base.rps,
    };
  }
  return costs;
}

function tenantsRows(results) {
  const base = results['tenants-bearer']?.tessera;
  return GROUPS.tenants.scenarios
    .filter((s) => results[s]?.tessera)
    .map((s) => {
      const x = results[s].tessera;
      const cpu = x.rounds.filter((r) => !r.error).map((r) => r.cpuUsPerRequest);
      const sc = SCENARIOS[s];
      return [
        s,
        sc.credential === 'key' ? `x-api-key, cacheSeconds ${sc.expectConfig.apiKeyCacheSeconds}, ${COUNTER_LABEL[sc.counter]}` : 'Bearer (HS256)',
        fmtInt(x.rps),
        `${fmtInt(x.rpsMin)}–${fmtInt(x.rpsMax)}`,
        fmt(x.p99, 2),
        fmt(x.rss, 0),
        fmt(x.cpuUs, 1),
        cpu.length ? `${fmt(Math.min(...cpu), 1)}–${fmt(Math.max(...cpu), 1)}` : 'n/a',
        Number.isFinite(x.busy) ? `${Math.round(100 * x.busy)}%` : 'n/a',
        s === 'tenants-bearer' ? '—' : base ? `${x.cpuUs - base.cpuUs >= 0 ? '+' : ''}${fmt(x.cpuUs - base.cpuUs, 1)}` : 'n/a',
      ];
    });
}

function tenantsCostLines(costs) {
  return Object.entries(costs).map(
    ([s, c]) =>
      `key verification, cacheSeconds ${SCENARIOS[s].expectConfig.apiKeyCacheSeconds}, ${COUNTER_LABEL[SCENARIOS[s].counter]}: ${c.cpuUs >= 0 ? '+' : ''}${fmt(c.cpuUs, 1)} µs CPU per request over the bearer path (${s} − tenants-bearer, medians; ${c.relative >= 0 ? '+' : ''}${fmt(100 * c.relative, 0)}%; per-round paired differences ${fmt(c.pairedMin, 1)} to ${fmt(c.pairedMax, 1)} µs, median ${fmt(c.pairedMedian, 1)}); req/s ${fmt(c.rpsRatio, 2)}x bearer`,
  );
}

// Targets of issue 2 (and issue 4 for GET /me), checked on the medians of this run.
function targets(results, cold) {
  const lines = [];
  const check = (ok, text) => lines.push(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  const shared = Object.entries(results).filter(([scenario]) => !SCENARIOS[scenario]?.group);
  for (const [scenario, summary] of shared) {
    const t = summary.tessera?.rps;
    if (!Number.isFinite(t)) continue;
    if (scenario === 'me') {
      const best = Math.max(summary.hono?.rps ?? NaN, summary.fastify?.rps ?? NaN);
      if (Number.isFinite(best)) check(t >= 1.5 * best, `${scenario}: Tessera ${fmt(ratio(t, best), 2)}x the faster of Hono/Fastify (target >= 1.5)`);
      continue;
    }
    if (Number.isFinite(summary.hono?.rps)) check(t >= summary.hono.rps, `${scenario}: Tessera ${fmt(ratio(t, summary.hono.rps), 2)}x Hono (target >= 1.0)`);
    if (Number.isFinite(summary.fastify?.rps)) check(t >= 0.9 * summary.fastify.rps, `${scenario}: Tessera ${fmt(ratio(t, summary.fastify.rps), 2)}x Fastify (target >= 0.9)`);
  }
  // The same comparisons on CPU time per request (capacity per core), which a starved load
  // generator cannot flatten. Informational: the targets are on req/s.
  for (const [scenario, summary] of shared) {
    const t = summary.tessera?.cpuUs;
    if (!Number.isFinite(t)) continue;
    const peers = ['raw', 'hono', 'fastify', 'express'].filter((f) => Number.isFinite(summary[f]?.cpuUs));
    if (peers.length === 0) continue;
    lines.push(`info  ${scenario}: CPU per request, Tessera ${fmt(t, 1)} µs; capacity ratio ${peers.map((f) => `${fmt(summary[f].cpuUs / t, 2)}x ${LABEL[f]}`).join(', ')}`);
  }
  // Issue 28, on CPU per request: Bun at or below Elysia and within 1.1x raw Bun.serve; Deno and workerd at or below Hono.
  for (const [scenario, summary] of shared) {
    const cpu = (f) => summary[f]?.cpuUs;
    const bun = cpu('bun-tessera');
    if (Number.isFinite(bun) && Number.isFinite(cpu('bun-elysia'))) check(bun <= cpu('bun-elysia'), `${scenario} on Bun: Tessera ${fmt(bun, 1)} µs vs Elysia ${fmt(cpu('bun-elysia'), 1)} µs CPU per request, ${fmt(ratio(bun, cpu('bun-elysia')), 2)}x (target <= 1.0)`);
    if (Number.isFinite(bun) && Number.isFinite(cpu('bun-raw'))) check(bun <= cpu('bun-raw'), `${scenario} on Bun: Tessera ${fmt(ratio(bun, cpu('bun-raw')), 2)}x raw Bun.serve CPU per request (target <= 1.0, issue 40)`);
    for (const runtime of ['deno', 'workerd']) {
      const t = cpu(`${runtime}-tessera`);
      const hono = cpu(`${runtime}-hono`);
      if (Number.isFinite(t) && Number.isFinite(hono)) check(t <= hono, `${scenario} on ${RUNTIME_TITLE[runtime]}: Tessera ${fmt(t, 1)} µs vs Hono ${fmt(hono, 1)} µs CPU per request, ${fmt(ratio(t, hono), 2)}x (target <= 1.0)`);
    }
  }
  if (Number.isFinite(cold.tessera?.ms) && Number.isFinite(cold.hono?.ms)) {
    check(cold.tessera.ms <= cold.hono.ms, `cold start: Tessera ${fmt(cold.tessera.ms, 0)} ms vs Hono ${fmt(cold.hono.ms, 0)} ms (target <=)`);
  }
  return lines;
}

/** The header lines of a run; lines 2+ are the method, repeated at the top of latest.md. */
function runHeader(m, c) {
  const lines = [
    `date ${m.date}`,
    `node ${m.node}${Object.entries(m.runtimes ?? {}).map(([r, v]) => `, ${r} ${v}`).join('')}, ${m.cpu}, ${m.cores} cores`,
    `load: ${m.loadTool}, ${c.connections} connections, pipelining 1; ${c.rounds} rounds x (${c.warmup} s warm-up + ${c.duration} s${c.slice === undefined ? '' : ` in turns of ${c.slice} s, frameworks alternating`})`,
    `${m.pinning ? 'server pinned to core 1, load generator to core 0' : 'NOT pinned (taskset missing or < 2 cores)'}; fresh server process per round`,
  ];
  if (m.loadavgAtStart > 0.5) lines.push(`WARNING: 1-min load average ${m.loadavgAtStart} before starting: other processes compete for the cores`);
  if (m.loadavgAtEnd !== undefined) lines.push(`load average ${m.loadavgAtStart} at start, ${m.loadavgAtEnd} at end`);
  return lines;
}

/**
 * Text and Markdown of a results document: the shared scenarios' tables, the tenants table with
 * the key's cost, cold start, targets. A document merged from several runs (BENCH_MERGE) says
 * under each section measured by a later run which run that was.
 */
function render(doc) {
  const provenance = {}; // section -> index in doc.merged
  (doc.merged ?? []).forEach((run, i) => {
    for (const s of run.scenarios) provenance[s] = i;
    if (run.coldStart) provenance.coldStart = i;
  });
  const measuredBy = (sections) => {
    const i = sections.map((x) => provenance[x]).find((x) => x !== undefined);
    if (i === undefined) return undefined;
    const run = doc.merged[i];
    return `measured ${run.machine.date.slice(0, 16).replace('T', ' ')} UTC in a later run, merged here: ${runHeader(run.machine, run.config).slice(2).join('; ')}`;
  };
  const out = [];
  const md = [`Measured ${doc.machine.date.slice(0, 10)} on ${doc.machine.cpu} (${doc.machine.cores} cores), Node ${doc.machine.node}; ${runHeader(doc.machine, doc.config).slice(2).join('; ')}.`, ''];
  const ordered = Object.keys(SCENARIOS).filter((s) => doc.results[s]);
  const fetchTables = [];
  for (const s of ordered.filter((x) => !SCENARIOS[x].group)) {
    const summary = onRuntime(doc.results[s], 'node');
    for (const runtime of ['bun', 'deno', 'workerd']) {
      const fetchSummary = onRuntime(doc.results[s], runtime);
      if (Object.keys(fetchSummary).length === 0) continue;
      const title = `${SCENARIOS[s].title} on ${RUNTIME_TITLE[runtime]}${doc.machine.runtimes?.[runtime] ? ` ${doc.machine.runtimes[runtime]}` : ''}`;
      fetchTables.push({ text: [`\n${title}`, textTable(FETCH_HEADERS, fetchRows(fetchSummary, runtime))], md: [`**${title}**`, '', mdTable(FETCH_HEADERS, fetchRows(fetchSummary, runtime)), ''] });
    }
    if (Object.keys(summary).length === 0) continue;
    const starved = Object.entries(summary).filter(([, x]) => x.busy < 0.85).map(([f]) => LABEL[f]);
    const note = starved.length
      ? `note: ${starved.join(', ')} below 85% busy: the load generator (or another process), not the server, set their req/s; compare CPU µs/req`
      : undefined;
    const by = measuredBy([s]);
    // The validators run (bench:validators) is the create route with body and response schemas in three libraries.
    const title = Object.keys(summary).every((f) => VALIDATOR_VARIANTS[f]) ? 'POST /posts (body and response schemas: zod, valibot, ArkType)' : SCENARIOS[s].title;
    out.push(`\n${title}`, ...(by ? [`(${by})`] : []), textTable(LOAD_HEADERS, loadRows(summary)), ...(note ? [note] : []));
    md.push(`**${title}**`, '', ...(by ? [`_${by}._`, ''] : []), mdTable(LOAD_HEADERS, loadRows(summary)), '', ...(note ? [`_${note}_`, ''] : []));
  }
  for (const table of fetchTables) {
    out.push(...table.text);
    md.push(...table.md);
  }
  const tenants = GROUPS.tenants.scenarios.filter((s) => doc.results[s]);
  if (tenants.length) {
    const rows = tenantsRows(doc.results);
    const costLines = tenantsCostLines(tenantsCost(doc.results));
    const by = measuredBy(tenants);
    const starved = tenants.filter((s) => doc.results[s].tessera?.busy < 0.85);
    const note = starved.length ? `note: ${starved.join(', ')} below 85% busy: compare CPU µs/req, not req/s` : undefined;
    out.push(`\n${GROUPS.tenants.title}`, ...(by ? [`(${by})`] : []), textTable(TENANTS_HEADERS, rows), ...(note ? [note] : []), ...costLines);
    md.push(`**${GROUPS.tenants.title}**`, '', ...(by ? [`_${by}._`, ''] : []), mdTable(TENANTS_HEADERS, rows), '', ...(note ? [`_${note}_`, ''] : []));
    if (costLines.length) md.push(...costLines.map((l) => `- ${l}`), '');
    md.push(`_${TENANTS_NOTE}_`, '');
  }
  const cold = doc.coldStart ?? {};
  if (Object.keys(cold).length) {
    const by = measuredBy(['coldStart']);
    out.push('\nCold start', ...(by ? [`(${by})`] : []), textTable(COLD_HEADERS, coldRows(cold)));
    md.push('**Cold start** (spawn to first response of `GET /hello/x`, median)', '', ...(by ? [`_${by}._`, ''] : []), mdTable(COLD_HEADERS, coldRows(cold)), '');
  }
  if (doc.validatorCost?.length) {
    out.push('\nValidator cost (issue 39)', ...doc.validatorCost);
    md.push('**Validator cost** (CPU per request over the same route with zod schemas)', '', ...doc.validatorCost.map((l) => `- ${l}`), '');
  }
  if (doc.otelCost?.length) {
    const received = doc.otlpReceived ? `the OTLP sink received ${doc.otlpReceived.traces.requests} trace exports (${fmt(doc.otlpReceived.traces.bytes / 1e6, 1)} MB) and ${doc.otlpReceived.metrics.requests} metric exports` : undefined;
    out.push('\nOpenTelemetry cost', ...doc.otelCost, ...(received ? [received] : []));
    md.push('**OpenTelemetry cost** (CPU per request over the same server without instrumentation)', '', ...doc.otelCost.map((l) => `- ${l}`), ...(received ? [`- ${received}`] : []), '');
  }
  if (doc.targets.length) {
    out.push('\nTargets', ...doc.targets);
    md.push('**Targets**', '', ...doc.targets.map((l) => `- ${l}`), '');
  }
  return { text: out.join('\n'), md: `${md.join('\n')}\n` };
}

/**
 * BENCH_MERGE=1 with the full method (>= 5 rounds of >= 5 s, every framework) but a subset of the
 * scenarios: the measured scenarios (and the cold start, if measured) replace theirs in
 * latest.json, the others are kept, and latest.md is rendered again from the result. Refused
 * (undefined) when latest.json is missing or was taken with another load tool.
 */
function mergeIntoLatest(run) {
  const file = join(resultsDir, 'latest.json');
  if (!existsSync(file)) return { error: 'no bench/results/latest.json to merge into' };
  const old = JSON.parse(readFileSync(file, 'utf8'));
  if (old.machine?.loadTool !== run.machine.loadTool) return { error: `latest.json was measured with ${old.machine?.loadTool}, this run with ${run.machine.loadTool}` };
  const results = { ...old.results };
  for (const s of run.config.scenarios) if (run.results[s]) results[s] = run.results[s];
  const measuredCold = Object.keys(run.coldStart).length > 0;
  const coldStart = measuredCold ? run.coldStart : old.coldStart;
  // Earlier merges keep only the sections no later run replaced.
  const replaced = (x) => run.config.scenarios.includes(x);
  const merged = (old.merged ?? [])
    .map((m) => ({ ...m, scenarios: m.scenarios.filter((x) => !replaced(x)), coldStart: m.coldStart && !measuredCold }))
    .filter((m) => m.scenarios.length || m.coldStart);
  merged.push({ machine: run.machine, config: run.config, scenarios: run.config.scenarios, coldStart: measuredCold });
  const doc = { machine: old.machine, config: old.config, results, coldStart, merged };
  doc.targets = targets(results, coldStart ?? {});
  doc.tenantsKeyCost = tenantsCost(results);
  return { doc };
}

/**
 * Starts the Redis and PostgreSQL servers the counter scenarios need (scripts/redis,
 * scripts/postgres: loopback, throwaway, stopped when the run ends), unless REDIS_URL or
 * DATABASE_URL points at one already. They run on the load generator's core, as a separate
 * store would run on another machine; the server's CPU figure is the app's alone.
 */
function startCounterServers() {
  const wants = (counter) => scenarioNames.some((s) => SCENARIOS[s].counter === counter);
  const start = (script, urlName, dirName, stop) => {
    const out = execFileSync(join(root, script), { encoding: 'utf8' });
    const url = new RegExp(`${urlName}=(\\S+)`).exec(out)?.[1];
    const dir = new RegExp(`${dirName}=(\\S+)`).exec(out)?.[1];
    process.once('exit', () => spawnSync(join(root, stop), [dir], { stdio: 'ignore' }));
    return url;
  };
  // A run stopped by a signal stops them too ('exit' handlers run only on a normal exit).
  if (wants('redis') || wants('postgres')) for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => process.exit(130));
  if (wants('redis') && !env.REDIS_URL) env.REDIS_URL = start('scripts/redis/start-test-server.sh', 'TEST_REDIS_URL', 'TESSERA_REDIS_DIR', 'scripts/redis/stop-test-server.sh');
  if (wants('postgres') && !env.DATABASE_URL) env.DATABASE_URL = start('scripts/postgres/start-test-server.sh', 'TEST_DATABASE_URL', 'TESSERA_PG_DIR', 'scripts/postgres/stop-test-server.sh');
}

async function main() {
  const m = machine();
  const needsTessera = scenarioNames.some((s) => frameworksOf(s).some((f) => baseOf(f) === 'tessera' || FETCH_FRAMEWORKS[f] !== undefined));
  if (scenarioNames.some((s) => frameworksOf(s).some((f) => OTEL_VARIANTS[f]?.otel === 'sdk'))) await startOtlpSink();
  if (needsTessera) {
    try {
      await buildTessera();
    } catch (error) {
      die(`building the Tessera bench server failed:\n${error.message}`);
    }
  } else {
    mkdirSync(buildDir, { recursive: true });
  }
  startCounterServers();
  if (pinning) execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' }); // keep the harness off the server's core
  bearer = await makeToken();

  console.log(runHeader(m, config).join('\n'));
  const started = performance.now();

  const results = {};
  for (const s of scenarioNames) {
    if (results[s]) continue;
    const group = SCENARIOS[s].group;
    if (group) Object.assign(results, await measureGroup(group, scenarioNames.filter((x) => SCENARIOS[x].group === group)));
    else results[s] = await measureScenario(s);
  }
  const cold = config.coldRounds > 0 ? await measureColdStarts() : {};

  const minutes = (performance.now() - started) / 60_000;
  m.loadavgAtEnd = loadavg();
  const doc = { machine: m, config: { ...config, scenarios: scenarioNames }, results, coldStart: cold, targets: targets(results, cold) };
  const costs = tenantsCost(results);
  if (Object.keys(costs).length) doc.tenantsKeyCost = costs;
  const instrumentationCost = otelCost(results);
  if (instrumentationCost.length) doc.otelCost = instrumentationCost;
  const validatorsCost = validatorCost(results);
  if (validatorsCost.length) doc.validatorCost = validatorsCost;
  if (otlpPort !== undefined) doc.otlpReceived = otlpReceived;
  const { text, md } = render(doc);
  console.log(`\n${runHeader(m, config).join('\n')}${text}\n\n(${fmt(minutes, 1)} min)`);

  // Only a run of every scenario and framework replaces latest.*; a narrowed or shortened run
  // (smoke tests, experiments) goes to partial.* so it never overwrites the recorded figures,
  // unless BENCH_MERGE=1 and the method is the full one (then its scenarios are merged in).
  const fullMethod = !frameworkFilter && config.rounds >= 5 && config.duration >= 5 && config.slice === 1;
  const complete = fullMethod && Object.keys(SCENARIOS).every((s) => scenarioNames.includes(s));
  mkdirSync(resultsDir, { recursive: true });
  const write = (base, d, markdown) => {
    writeFileSync(join(resultsDir, `${base}.json`), `${JSON.stringify(d, null, 2)}\n`);
    writeFileSync(join(resultsDir, `${base}.md`), markdown);
    console.log(`wrote ${relative(root, join(resultsDir, `${base}.json`))} and ${base}.md`);
  };
  if (complete) return write('latest', doc, md);
  if (env.BENCH_MERGE === '1') {
    if (!fullMethod) console.error('bench: BENCH_MERGE=1 ignored: the run is shortened or narrowed to some frameworks');
    else {
      const { doc: mergedDoc, error } = mergeIntoLatest(doc);
      if (mergedDoc) {
        write('latest', mergedDoc, render(mergedDoc).md);
        console.log(`merged ${scenarioNames.join(', ')}${Object.keys(cold).length ? ' and the cold start' : ''} into latest.*; the other sections are kept`);
        return;
      }
      console.error(`bench: cannot merge: ${error}`);
    }
  }
  // BENCH_RESULTS names the files of a narrowed run kept on purpose (npm run bench:otel: otel.*).
  write(env.BENCH_RESULTS || 'partial', doc, md);
}

// ---------------------------------------------------------------------------------------------
// `profile`: CPU profile of the Tessera server under load, top self-time functions mapped to lib/

function decodeSourceMap(map) {
  const chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  const value = Object.fromEntries([...chars].map((c, i) => [c, i]));
  const lines = [];
  let src = 0;
  let srcLine = 0;
  let srcCol = 0;
  for (const lineText of map.mappings.split(';')) {
    const segments = [];
    let col = 0;
    for (const seg of lineText.split(',')) {
      if (!seg) continue;
      const fields = [];
      let shift = 0;
      let acc = 0;
      for (const ch of seg) {
        const digit = value[ch];
        acc += (digit & 31) << shift;
        if (digit & 32) shift += 5;
        else {
          fields.push(acc & 1 ? -(acc >>> 1) : acc >>> 1);
          acc = 0;
          shift = 0;
        }
      }
      col += fields[0];
      if (fields.length >= 4) {
        src += fields[1];
        srcLine += fields[2];
        srcCol += fields[3];
        segments.push([col, src, srcLine]);
      }
    }
    lines.push(segments);
  }
  return (line, column) => {
    const segs = lines[line];
    if (!segs || segs.length === 0) return undefined;
    let best = segs[0];
    for (const s of segs) if (s[0] <= column) best = s;
    return `${relative(root, join(buildDir, map.sources[best[1]]))}:${best[2] + 1}`;
  };
}

async function profile() {
  const scenario = process.argv[3] ?? 'hello';
  const framework = process.argv[4] ?? 'tessera';
  if (!SCENARIOS[scenario]) die(`unknown scenario ${scenario}`);
  await buildTessera();
  bearer = await makeToken();
  const profDir = join(buildDir, 'profiles');
  rmSync(profDir, { recursive: true, force: true });
  const server = await startServer(framework, scenario, {
    // A finer sampling interval (µs) than Node's 1000 separates functions that cost a few tenths of a µs per request.
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-interval=${num('BENCH_PROFILE_INTERVAL', 1000)}`],
  });
  await checkServer(scenario, server);
  const r = await load(scenario, server, config.duration, config.warmup);
  await stopServer(server, 'SIGTERM'); // the servers exit normally on SIGTERM, so the profile is written
  const file = readdirSync(profDir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) die('no .cpuprofile written');
  const prof = JSON.parse(readFileSync(join(profDir, file), 'utf8'));
  const maps = new Map(); // every bundle file (entry and chunks) has its own source map
  const lookups = (file) => {
    if (!maps.has(file)) maps.set(file, existsSync(`${file}.map`) ? decodeSourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8'))) : () => undefined);
    return maps.get(file);
  };

  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const self = new Map();
  let total = 0;
  prof.samples.forEach((id, i) => {
    const dt = prof.timeDeltas[i] ?? 0;
    self.set(id, (self.get(id) ?? 0) + dt);
    total += dt;
  });
  const agg = new Map();
  const byFile = new Map();
  for (const [id, t] of self) {
    const { callFrame: cf } = byId.get(id);
    const url = cf.url.replace(/^file:\/\//, '');
    let where = url ? `${relative(root, url)}:${cf.lineNumber + 1}` : '(native)';
    if (url.startsWith(buildDir)) where = lookups(url)(cf.lineNumber, cf.columnNumber) ?? where;
    const key = `${cf.functionName || '(anonymous)'}  ${where}`;
    agg.set(key, (agg.get(key) ?? 0) + t);
    const fileKey = where.startsWith('lib/') || where.startsWith('bench/') ? where.replace(/:\d+$/, '') : where.startsWith('node_modules/') ? where.split('/').slice(0, where.includes('/@') ? 3 : 2).join('/') : url.startsWith('node:') ? 'node: internals' : cf.functionName.startsWith('(') ? cf.functionName : 'native/other';
    byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + t);
  }
  // Percentages of busy time: idle time depends on the load generator, not on the server.
  const busy = total - (agg.get('(idle)  (native)') ?? 0);
  agg.delete('(idle)  (native)');
  byFile.delete('(idle)');
  const top = (m, n) => [...m].sort((a, b) => b[1] - a[1]).slice(0, n).map(([k, t]) => [`${fmt((100 * t) / busy, 1)}%`, k]);
  const report = [
    `profile of ${LABEL[framework]}, scenario ${scenario}: ${fmtInt(r.rps)} req/s under load (${config.duration} s), server ${Math.round(100 * r.busy)}% busy, ${fmt(r.cpuUs, 1)} µs CPU per request; ${fmt(total / 1e6, 1)} s sampled (start-up and warm-up included), ${fmt(busy / 1e6, 1)} s busy`,
    '',
    'top self time by function (% of busy time):',
    ...top(agg, 30).map(([p, k]) => `  ${p.padStart(6)}  ${k}`),
    '',
    'self time by file / package:',
    ...top(byFile, 20).map(([p, k]) => `  ${p.padStart(6)}  ${k}`),
  ].join('\n');
  console.log(report);
  mkdirSync(resultsDir, { recursive: true });
  writeFileSync(join(resultsDir, `profile-${framework}-${scenario}.txt`), `${report}\n`);
  console.log(`\nwrote ${relative(root, join(resultsDir, `profile-${framework}-${scenario}.txt`))}; raw profile: ${relative(root, join(profDir, file))}`);
}

// ---------------------------------------------------------------------------------------------
// Instructions per request (`npm run bench:instructions`)

/**
 * Counts the user-space instructions a server executes per request, under valgrind's callgrind:
 * unlike CPU time, the count does not move with the neighbours of a VM (two runs of one server
 * agree within ~2%, where CPU µs per request spreads ±15% on a busy day), so it settles a
 * 5-10% difference in one run. It leaves out the kernel's share (the socket reads and writes,
 * the same for every framework of a runtime), so its ratios are larger than the CPU-time ones.
 * Every server runs ~100x slower under valgrind: after the answers are checked, it is loaded in
 * windows of BENCH_WINDOW seconds (6) until the last three agree within 4% (its JIT has
 * settled; at least BENCH_MIN_WINDOWS, 9, at most BENCH_MAX_WINDOWS, 40), and their median is
 * the figure.
 */
async function instructions() {
  if (!has('valgrind') || !has('callgrind_control')) die('bench:instructions needs valgrind (Debian package valgrind)');
  const frameworks = frameworkFilter ?? FETCH_AVAILABLE.filter((f) => runtimeOf(f) !== 'workerd');
  const scenarios = list('BENCH_SCENARIOS') ?? ['hello', 'create', 'routes'];
  await buildTessera();
  bearer = await makeToken();
  const windowSeconds = num('BENCH_WINDOW', 6);
  const maxWindows = num('BENCH_MAX_WINDOWS', 40);
  const minWindows = num('BENCH_MIN_WINDOWS', 9);
  // Fewer connections than the timed runs: a server 100x slower would let wrk's 2-s timeout cut
  // requests it then still serves (counted instructions, uncounted requests).
  config.connections = num('BENCH_CONNECTIONS', 10);
  const results = {};
  for (const scenario of scenarios) {
    results[scenario] = {};
    for (const framework of frameworks) {
      const out = join(buildDir, `callgrind-${framework}-${scenario}`);
      // --fair-sched: Hono on Deno stopped answering under valgrind's default lock (V8's threads).
      const prefix = ['valgrind', '--tool=callgrind', '--smc-check=all', '--fair-sched=yes', '--dump-instr=no', `--callgrind-out-file=${out}.%p`];
      const server = await startServer(framework, scenario, { prefix, readyMs: 180_000 });
      try {
        await checkServer(scenario, server, 60_000); // a first answer under valgrind can take seconds
        const once = loader(scenario, server);
        const perRequest = [];
        for (let i = 0; i < maxWindows; i++) {
          await run('callgrind_control', ['-z', String(server.child.pid)]);
          const r = await once(windowSeconds);
          await run('callgrind_control', ['-d', String(server.child.pid)]);
          if (r.non2xx > 0) throw new Error(`${r.non2xx} non-2xx answers`);
          // A window with timeouts (the JIT still compiling) counts work for requests wrk dropped.
          perRequest.push(r.errors > 0 ? NaN : (await lastDumpSummary(out, server.child.pid)) / r.total);
          // At least minWindows: Deno's JIT can rest on a plateau ~35% above its final tier for
          // three windows in a row (2026-11-28: 29,760 "settled" after 6 windows, 22,390 after 11).
          if (perRequest.length >= minWindows && settled(perRequest.slice(-3))) break;
        }
        const last = perRequest.slice(-3).filter(Number.isFinite);
        results[scenario][framework] = { instructions: median(last), windows: perRequest.length, settled: settled(last) };
        console.log(`${scenario} ${LABEL[framework]} (${runtimeOf(framework)}): ${fmtInt(median(last))} instructions per request (${perRequest.map((x) => fmtInt(x)).join(', ')})`);
      } finally {
        await stopServer(server);
      }
    }
  }
  const lines = ['# Instructions per request', '', `_${new Date().toISOString()}, \`npm run bench:instructions\`: user-space instructions per request under callgrind, median of the last three ${windowSeconds}-s windows once they agree within 4%._`, ''];
  for (const scenario of scenarios) {
    const row = results[scenario];
    const peer = (runtime, name) => row[`${runtime}-${name}`]?.instructions;
    lines.push(`**${SCENARIOS[scenario].title}**`, '', '| runtime | framework | instructions / request | Tessera ÷ this |', '| --- | --- | ---: | ---: |');
    for (const [framework, r] of Object.entries(row)) {
      const tessera = peer(runtimeOf(framework), 'tessera');
      lines.push(`| ${RUNTIME_TITLE[runtimeOf(framework)]} | ${LABEL[framework]} | ${fmtInt(r.instructions)}${r.settled ? '' : ' (not settled)'} | ${tessera === undefined ? '' : fmt(tessera / r.instructions, 2)} |`);
    }
    lines.push('');
  }
  const md = lines.join('\n');
  console.log(`\n${md}`);
  mkdirSync(resultsDir, { recursive: true });
  const name = env.BENCH_RESULTS ?? 'instructions';
  writeFileSync(join(resultsDir, `${name}.md`), md);
  console.log(`wrote ${relative(root, join(resultsDir, `${name}.md`))}`);
}

/** Whether three windows' counts agree within 4% (a window with socket errors, NaN, never does). */
const settled = (windows) => windows.length === 3 && Math.max(...windows) <= 1.04 * Math.min(...windows);

/** The `summary:` count of the newest callgrind dump of a process (each `-d` writes the next part). */
async function lastDumpSummary(out, pid) {
  const prefix = `${basename(out)}.${pid}.`;
  for (let attempt = 0; attempt < 50; attempt++) {
    const parts = readdirSync(dirname(out)).filter((f) => f.startsWith(prefix)).sort((a, b) => Number(a.slice(prefix.length)) - Number(b.slice(prefix.length)));
    const newest = parts.at(-1);
    const summary = newest === undefined ? undefined : /^summary: (\d+)$/m.exec(readFileSync(join(dirname(out), newest), 'utf8'))?.[1];
    if (summary !== undefined) return Number(summary);
    await sleep(100);
  }
  throw new Error(`no callgrind dump ${out}.${pid}.*`);
}

if (process.argv[2] === 'profile') await profile();
else if (process.argv[2] === 'instructions') await instructions();
else if (process.argv[2] === 'render') {
  // Re-renders latest.md from latest.json (after a change to the tables, notes or targets; measures nothing).
  const doc = JSON.parse(readFileSync(join(resultsDir, 'latest.json'), 'utf8'));
  // The targets are judged again from the results: a target changed since the run applies.
  doc.targets = targets(doc.results, doc.coldStart ?? {});
  writeFileSync(join(resultsDir, 'latest.md'), render(doc).md);
  console.log(`wrote ${relative(root, join(resultsDir, 'latest.md'))} from latest.json`);
} else await main();
