import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { argon2id } from 'hash-wasm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRuntimeEntry } from './build-runtime-entry.js';
import { CONFORMANCE_CHECKS, PASSWORD, type CheckContext, type Exchange, type RawAnswer } from './conformance-checks.js';
import { BUILD_DIR, RUNTIMES, type RuntimeServer, type RuntimeSpec } from './runtime-servers.js';
import { openSocket } from '../websocket/socket-client.js';

// The same shared checks against the same built package (dist/) served by Node, Bun, Deno and
// workerd. Every runtime is started and driven at once in beforeAll (the slow part is process
// start-up and Argon2id, not the requests); each check is then one test per runtime that reports
// what happened and compares the normalised answers with Node's.

const root = join(import.meta.dirname, '..', '..');
const REQUEST_TIMEOUT_MS = 20_000;

// Decided while collecting, so that a missing runtime shows up as skipped, with its reason.
const skipReasons = new Map<string, string | undefined>(await Promise.all(RUNTIMES.map(async (spec) => [spec.name, await spec.unavailable()] as const)));
for (const [name, reason] of skipReasons) if (reason !== undefined) console.warn(`[runtimes] SKIPPED ${name}: ${reason}`);

type Answer = { readonly exchanges: Exchange[] } | { readonly error: unknown };
const outcomes = new Map<string, Map<string, Answer>>();
const servers: RuntimeServer[] = [];

async function request(base: string, method: string, path: string, init: { json?: unknown; body?: string; headers?: Record<string, string> } = {}): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...init.headers };
  let body = init.body;
  if (init.json !== undefined) {
    body = JSON.stringify(init.json);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${base}${path}`, { method, headers, body, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** How long one check may take on one runtime. */
const CHECK_TIMEOUT_MS = 10_000;

/** Builds, starts and drives one runtime; every failure is recorded against the checks it prevents. */
async function driveRuntime(spec: RuntimeSpec, storedHash: string): Promise<Map<string, Answer>> {
  const results = new Map<string, Answer>();
  let server: RuntimeServer;
  try {
    const bundle = join(BUILD_DIR, `${spec.name}.js`);
    const built = await buildRuntimeEntry(spec.entry, bundle, { mode: spec.mode });
    // The point of the suite: the framework comes from dist/, never from the sources in lib/.
    expect(built.inputs.filter((input) => /^(lib|facade)\//.test(input)), `${spec.name} bundle took in sources`).toEqual([]);
    if (spec.mode === 'external') expect(built.externalImports).toEqual(expect.arrayContaining(['tessera-http', 'tessera-http/auth', 'tessera-http/openapi']));
    else expect(built.inputs).toEqual(expect.arrayContaining(['dist/index.js', 'dist/auth.js', 'dist/openapi.js']));
    server = await spec.start(join(root, bundle));
    servers.push(server);
  } catch (error) {
    // Reported in full once; the other checks point at it instead of repeating it.
    const [first, ...rest] = CONFORMANCE_CHECKS;
    if (first !== undefined) results.set(first.name, { error });
    for (const check of rest) results.set(check.name, { error: new Error(`${spec.name} did not build or start: see "${first?.name}"`) });
    return results;
  }
  const ctx: CheckContext = {
    target: { name: spec.name, givesClientAddress: spec.givesClientAddress, urls: server.urls },
    saved: new Map(),
    storedHash,
    request: (app, method, path, init) => request(server.urls[app], method, path, init),
  };
  for (const check of CONFORMANCE_CHECKS) {
    try {
      // A check that hangs (a socket that never closes) fails on its own instead of the whole suite's hook.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${spec.name}: "${check.name}" took over ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)));
      results.set(check.name, { exchanges: await Promise.race([check.run(ctx), timeout]).finally(() => clearTimeout(timer)) });
    } catch (error) {
      if (error instanceof Error) error.message += `\n--- ${spec.name} output ---\n${server.output().slice(-2_000)}`;
      results.set(check.name, { error });
    }
  }
  results.set(SHUTDOWN_CHECK, await shutDown(spec, server).then((exchanges) => ({ exchanges }), (error: unknown) => ({ error })));
  return results;
}

/** Run after every other check: SIGTERM with a WebSocket open must close it with 1001 and end the process. */
const SHUTDOWN_CHECK = 'websocket: SIGTERM closes open sockets with 1001, then the process exits';

async function shutDown(spec: RuntimeSpec, server: RuntimeServer): Promise<Exchange[]> {
  // workerd's process is the platform's, not the app's: there is no close() to call.
  if (spec.name === 'workerd') return [];
  const socket = await openSocket(`${server.urls.site.replace(/^http/, 'ws')}/kit/socket`, { headers: { origin: 'http://conformance.test' } });
  process.kill(server.pid, 'SIGTERM');
  const closed = await socket.closed;
  const deadline = Date.now() + 10_000;
  while (isAlive(server.pid)) {
    if (Date.now() > deadline) throw new Error(`${spec.name} did not exit within 10 s of SIGTERM`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return [{ request: 'SIGTERM with a socket open', status: closed.code, headers: {}, body: closed.reason }];
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: `npm test` builds it first (npm run build).');
  mkdirSync(join(root, BUILD_DIR), { recursive: true });
  // Made by the test process (hash-wasm, fixed salt): each runtime must verify a hash it did not write.
  const storedHash = await argon2id({
    password: PASSWORD,
    salt: new TextEncoder().encode('runtime-fixture!'),
    memorySize: 19_456,
    iterations: 2,
    parallelism: 1,
    hashLength: 32,
    outputType: 'encoded',
  });
  const available = RUNTIMES.filter((spec) => skipReasons.get(spec.name) === undefined);
  await Promise.all(available.map(async (spec) => outcomes.set(spec.name, await driveRuntime(spec, storedHash))));
}, 85_000);

afterAll(() => {
  for (const server of servers) server.stop();
});

for (const spec of RUNTIMES) {
  const reason = skipReasons.get(spec.name);
  describe.skipIf(reason !== undefined)(reason === undefined ? spec.name : `${spec.name} (SKIPPED: ${reason})`, () => {
    it.skipIf(spec.name === 'workerd')(SHUTDOWN_CHECK, () => {
      const outcome = outcomes.get(spec.name)?.get(SHUTDOWN_CHECK);
      if (outcome === undefined) throw new Error(`${spec.name} was not driven; see the beforeAll failure`);
      if ('error' in outcome) throw outcome.error;
      expect(outcome.exchanges, `${spec.name}: the open socket was told 1001 (going away)`).toEqual([{ request: 'SIGTERM with a socket open', status: 1001, headers: {}, body: 'Server shutting down' }]);
    });
    for (const check of CONFORMANCE_CHECKS) {
      it(check.name, () => {
        const outcome = outcomes.get(spec.name)?.get(check.name);
        if (outcome === undefined) throw new Error(`${spec.name} was not driven; see the beforeAll failure`);
        if ('error' in outcome) throw outcome.error;
        if (check.comparable === false || spec.name === 'node') return;
        const reference = outcomes.get('node')?.get(check.name);
        if (reference === undefined || 'error' in reference) throw new Error('Node, the reference, failed this check: fix that first');
        expect(outcome.exchanges, `${spec.name} answers like Node`).toEqual(reference.exchanges);
      });
    }
  });
}
