import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILD_DIR, bunBinary, denoBinary, freePort, probeBinary, spawnServer, waitForHttp, workerdBinary, workerdConfig } from './runtime-servers.js';

// openTelemetry() through each runtime's own server and the fetch adapter, with the real SDK and
// the AsyncLocalStorage context manager (test/runtimes/trace/trace-app.mjs, built against dist/):
// an incoming traceparent is continued, and spans made by handler code after an await and after
// the body was read nest under the request's SERVER span. Node, Bun and Deno run the app as a
// server; workerd runs it as a Worker with `nodejs_compat`, which provides AsyncLocalStorage.

const root = join(import.meta.dirname, '..', '..');
const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN = '00f067aa0ba902b7';
const START_TIMEOUT_MS = 30_000;

interface FinishedSpan {
  readonly name: string;
  readonly kind: number;
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId?: string;
  readonly attributes: Record<string, unknown>;
}

interface Probe {
  readonly base: string;
  stop(): void;
}

/** Starts the trace app's server on a runtime that prints `trace-probe ready <url>`. */
function startServerProbe(binary: string, args: readonly string[]): Promise<Probe> {
  const server = spawnServer(binary, args, {});
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail('no ready line'), START_TIMEOUT_MS);
    const fail = (why: string) => {
      clearTimeout(timer);
      server.stop();
      reject(new Error(`${why}\n--- output ---\n${server.output()}`));
    };
    server.child.stdout?.on('data', () => {
      const match = /trace-probe ready (\S+)/.exec(server.output());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve({ base: match[1], stop: server.stop });
    });
    server.child.once('exit', (code, signal) => fail(`exited with ${code ?? signal}`));
  });
}

/**
 * The context manager (CommonJS in the OpenTelemetry 2.x line) `require`s Node's modules by their
 * bare names. workerd's `nodejs_compat` serves them as ES modules named `node:*`, and an ES module
 * bundle cannot `require` an external, so each is bundled as a one-line module that imports it,
 * which is what wrangler's Node compatibility does too.
 */
const nodeModulesAsImports: Plugin = {
  name: 'node-modules-as-imports',
  setup(plugin) {
    plugin.onResolve({ filter: /^(node:)?(async_hooks|events)$/ }, (args) => {
      const name = args.path.replace(/^node:/, '');
      return args.kind === 'require-call' ? { path: name, namespace: 'node-module-import' } : { path: `node:${name}`, external: true };
    });
    plugin.onLoad({ filter: /.*/, namespace: 'node-module-import' }, (args) => ({ contents: `export * from 'node:${args.path}';`, loader: 'js' }));
  },
};

/** Bundles trace-worker.mjs (as wrangler would) and serves it with workerd and `nodejs_compat`. */
async function startWorkerdProbe(): Promise<Probe> {
  const outdir = join(root, BUILD_DIR, 'trace');
  mkdirSync(outdir, { recursive: true });
  await build({
    entryPoints: [join(import.meta.dirname, 'trace', 'trace-worker.mjs')],
    outfile: join(outdir, 'trace-worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    plugins: [nodeModulesAsImports],
    external: ['node:*'],
    logLevel: 'error',
  });
  const port = await freePort();
  writeFileSync(join(outdir, 'trace.capnp'), workerdConfig([{ name: 'trace', port, bundle: 'trace-worker.js', compatibilityFlags: ['nodejs_compat'] }]));
  const server = spawnServer(workerdBinary as string, ['serve', join(outdir, 'trace.capnp')], {});
  const base = `http://127.0.0.1:${port}`;
  try {
    await waitForHttp(`${base}/spans`, START_TIMEOUT_MS, () => server.child.exitCode !== null || server.child.signalCode !== null);
  } catch (error) {
    server.stop();
    throw new Error(`workerd did not start: ${(error as Error).message}\n--- output ---\n${server.output()}`);
  }
  return { base, stop: server.stop };
}

const probe = join('test', 'runtimes', 'trace', 'trace-server.mjs');
const RUNTIMES = [
  { name: 'node', available: () => probeBinary(process.execPath), start: () => startServerProbe(process.execPath, [probe]) },
  { name: 'bun', available: () => probeBinary(bunBinary), start: () => startServerProbe(bunBinary as string, [probe]) },
  {
    name: 'deno',
    available: () => probeBinary(denoBinary),
    start: () => startServerProbe(denoBinary as string, ['run', '--no-prompt', '--no-lock', '--allow-net=127.0.0.1', `--allow-read=${root}`, '--allow-env', probe]),
  },
  { name: 'workerd', available: () => probeBinary(workerdBinary), start: startWorkerdProbe },
] as const;

for (const runtime of RUNTIMES) {
  const reason = await runtime.available();
  describe.skipIf(reason !== undefined)(reason === undefined ? `traces on ${runtime.name}` : `traces on ${runtime.name} (SKIPPED: ${reason})`, () => {
    let server: Probe | undefined;
    let spans: FinishedSpan[] = [];
    let statuses: number[] = [];
    beforeAll(async () => {
      server = await runtime.start();
      const base = server.base;
      statuses = [
        (await fetch(`${base}/posts/7`, { headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01`, 'user-agent': 'trace-probe' } })).status,
        (await fetch(`${base}/posts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"t"}' })).status,
        (await fetch(`${base}/nothing`)).status,
      ];
      spans = (await (await fetch(`${base}/spans`)).json()) as FinishedSpan[];
    }, 60_000);
    afterAll(() => server?.stop());

    const serverSpan = (name: string) => {
      const span = spans.find((candidate) => candidate.name === name && candidate.kind === 1);
      expect(span, `${runtime.name}: no SERVER span named "${name}" among ${JSON.stringify(spans.map((s) => s.name))}`).toBeDefined();
      return span as FinishedSpan;
    };
    const userSpan = (name: string) => {
      const span = spans.find((candidate) => candidate.name === name);
      expect(span, `${runtime.name}: the handler's span "${name}" was not recorded`).toBeDefined();
      return span as FinishedSpan;
    };

    it('answers the three requests', () => {
      expect(statuses).toEqual([200, 201, 404]);
    });

    it('continues the incoming traceparent: same trace id, the caller\u2019s span as parent', () => {
      const span = serverSpan('GET /posts/:id');
      expect([span.traceId, span.parentSpanId]).toEqual([TRACE_ID, CALLER_SPAN]);
    });

    it('labels the request span with the route template and the HTTP attributes', () => {
      expect(serverSpan('GET /posts/:id').attributes).toMatchObject({
        'http.request.method': 'GET',
        'http.route': '/posts/:id',
        'url.path': '/posts/7',
        'http.response.status_code': 200,
        'server.address': '127.0.0.1',
        'user_agent.original': 'trace-probe',
      });
    });

    it('nests a span the handler makes after an await under the request span', () => {
      const request = serverSpan('GET /posts/:id');
      const user = userSpan('user.after-await');
      expect([user.traceId, user.parentSpanId], 'the context was lost across the await').toEqual([request.traceId, request.spanId]);
    });

    it('nests a span the handler makes after the body was read under the request span', () => {
      const request = serverSpan('POST /posts');
      const user = userSpan('user.after-body');
      expect([user.traceId, user.parentSpanId], 'the context was lost across the body read').toEqual([request.traceId, request.spanId]);
    });

    it('names an unmatched request\u2019s span by its method alone', () => {
      expect(serverSpan('GET').attributes['http.response.status_code']).toBe(404);
    });
  });
}
