// The WebSocket memory scenario (`npm run bench:ws -- memory`, or `node bench/websocket-memory.mjs`):
// what one idle connection costs a server, in JS heap and RSS. For each connection count and each
// of BENCH_ROUNDS rounds, every server gets a fresh process (pinned to core 1, the probe of
// bench/ws-memory-probe.mjs preloaded), one at a time, in an order rotated every round:
//   1. a warm-up: 50 connections that each exchange one message, then close (the code paths
//      every connection takes are loaded and compiled before the baseline);
//   2. the baseline: full GCs, then process.memoryUsage();
//   3. N idle connections from other processes (bench/ws-idle-clients.mjs, pinned to core 0, at
//      most 10,000 per process, several loopback source addresses);
//   4. `idle`: full GCs, then process.memoryUsage(); per connection = (idle - baseline) / N;
//   5. one message echoed on every connection (checked: each has its echo), then again after GC
//      (`after one message`: what a connection keeps once it has been used).
// Node: raw `ws` over node:http, Fastify 5 + @fastify/websocket, Tessera (tessera-http/node), and
// Tessera with one feature each (a guard whose credential expires, a subscription to a shared
// topic, a topic of its own, a message schema). Bun: raw Bun.serve, Elysia 1.4, Tessera (bunServer).
// Results: bench/results/websocket-memory.{md,json} (websocket-memory-partial.* for a shortened run).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COUNTS = (process.env.BENCH_WS_CONNECTIONS ?? '3000,30000').split(',').map(Number);
const PER_CLIENT = 10_000;
const bun = join(root, 'node_modules', '.bin', 'bun');
const probe = join(root, 'bench', 'ws-memory-probe.mjs');

const built = join(root, 'bench', '.build', 'ws-tessera.mjs');
const { build } = await import('esbuild');
await build({ entryPoints: [join(root, 'bench', 'servers', 'ws-tessera.ts')], outfile: built, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });

const node = (file, env = {}) => ({ command: [process.execPath, '--expose-gc', '--import', probe, file], env });
const onBun = (file, env = {}) => ({ command: [bun, '--preload', probe, file], env });
const ALL = [
  { id: 'ws', name: 'ws (raw)', runtime: 'Node', ...node('bench/servers/ws-raw.mjs') },
  { id: 'fastify', name: 'Fastify + @fastify/websocket', runtime: 'Node', ...node('bench/servers/ws-fastify.mjs') },
  { id: 'tessera', name: 'Tessera', runtime: 'Node', ...node(built) },
  { id: 'tessera-guard', name: 'Tessera + guard with expiring credential', runtime: 'Node', feature: true, ...node(built, { BENCH_WS_FEATURE: 'guard' }) },
  { id: 'tessera-subscription', name: 'Tessera + subscription (shared topic)', runtime: 'Node', feature: true, ...node(built, { BENCH_WS_FEATURE: 'subscription' }) },
  { id: 'tessera-own-topic', name: 'Tessera + subscription (a topic per socket)', runtime: 'Node', feature: true, ...node(built, { BENCH_WS_FEATURE: 'own-topic' }) },
  { id: 'tessera-schema', name: 'Tessera + message schema (zod)', runtime: 'Node', feature: true, ...node(built, { BENCH_WS_FEATURE: 'schema' }) },
  { id: 'bun', name: 'Bun.serve (raw)', runtime: 'Bun', ...onBun('bench/servers/ws-bun-raw.mjs') },
  { id: 'elysia', name: 'Elysia', runtime: 'Bun', ...onBun('bench/servers/ws-elysia.mjs') },
  { id: 'bun-tessera', name: 'Tessera', runtime: 'Bun', ...onBun('bench/servers/ws-tessera.ts') },
];
const wanted = process.env.BENCH_FRAMEWORKS?.split(',');
const FRAMEWORKS = ALL.filter((f) => (wanted === undefined || wanted.includes(f.id)) && (f.runtime !== 'Bun' || existsSync(bun)));

const pinning = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0 && cpus().length >= 2;
const pin = (core) => (pinning ? ['taskset', '-c', String(core)] : []);
// A server holds one descriptor per connection: its limit is raised for the child (up to the hard
// limit, which only a privileged process can raise).
const hardLimit = Number(spawnSync('sh', ['-c', 'ulimit -Hn'], { encoding: 'utf8' }).stdout.trim()) || Infinity;
const HEADROOM = 512;
let nextPort = 43_000;

function lines(stream, onLine) {
  createInterface({ input: stream }).on('line', onLine);
}

function startServer(framework, connections) {
  const port = nextPort++;
  const limit = Math.min(hardLimit, connections + HEADROOM * 2);
  const command = [...pin(1), ...framework.command].map((part) => `'${part}'`).join(' ');
  const child = spawn('sh', ['-c', `ulimit -n ${limit} && exec ${command}`], { cwd: root, env: { ...process.env, ...framework.env, PORT: String(port), NODE_ENV: 'production' }, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  lines(child.stdout, (line) => {
    const waiter = waiting.find((w) => line.startsWith(w.prefix));
    if (waiter !== undefined) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(line.slice(waiter.prefix.length).trim());
    }
  });
  const expect = (prefix, timeoutMs = 60_000) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${framework.name}: no '${prefix}' within ${timeoutMs} ms`)), timeoutMs);
      waiting.push({ prefix, resolve: (value) => (clearTimeout(timer), resolve(value)) });
    });
  const server = {
    child,
    port,
    async measure() {
      const answer = expect('memory ');
      child.stdin.write('measure\n');
      return JSON.parse(await answer);
    },
    async snapshot(path) {
      const answer = expect('snapshot ', 120_000);
      child.stdin.write(`snapshot ${path}\n`);
      return answer;
    },
  };
  const exited = new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`${framework.name} exited ${code}`))));
  exited.catch(() => {});
  return Promise.race([expect('ready', 30_000).then(() => server), exited]);
}

function startClients(port, count, firstAddress) {
  const [cmd, ...args] = [...pin(0), process.execPath, 'bench/ws-idle-clients.mjs', `ws://127.0.0.1:${port}/echo`, String(count), String(firstAddress)];
  const child = spawn(cmd, args, { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = [];
  lines(child.stdout, (line) => waiting.shift()?.(line));
  const next = () => new Promise((resolve) => waiting.push(resolve));
  const exited = new Promise((_, reject) => child.once('exit', (code) => code !== 0 && reject(new Error(`a client process exited ${code} before it was told to`))));
  exited.catch(() => {});
  return {
    child,
    opened: Promise.race([next(), exited]),
    async check() {
      const answer = next();
      child.stdin.write('check\n');
      return answer;
    },
    end() {
      child.stdin.write('end\n');
      return new Promise((resolve) => child.once('exit', resolve));
    },
  };
}

/** Opens `count` connections from as many client processes as needed (PER_CLIENT each, their own source addresses). */
async function openConnections(port, count) {
  const groups = [];
  for (let opened = 0, process = 0; opened < count; opened += PER_CLIENT, process++) groups.push(startClients(port, Math.min(PER_CLIENT, count - opened), 1 + process));
  const answers = await Promise.all(groups.map((g) => g.opened));
  const opened = answers.reduce((sum, line) => sum + Number(/^opened (\d+)$/.exec(line)?.[1] ?? NaN), 0);
  if (opened !== count) throw new Error(`opened ${opened} of ${count} connections`);
  return groups;
}

async function measureOne(framework, requested) {
  const connections = Math.min(requested, hardLimit - HEADROOM);
  const server = await startServer(framework, connections);
  try {
    const warm = await openConnections(server.port, 50);
    for (const g of warm) {
      const echoed = await g.check();
      if (!echoed.startsWith('echoed 50 ')) throw new Error(`${framework.name}: warm-up ${echoed}`);
      await g.end();
    }
    await new Promise((r) => setTimeout(r, 300));
    const baseline = await server.measure();
    // The baseline's snapshot too: the difference of the two, by constructor, is what the connections hold.
    if (process.env.BENCH_WS_SNAPSHOT !== undefined) await server.snapshot(join(process.env.BENCH_WS_SNAPSHOT, `${framework.id}-0.heapsnapshot`));
    const started = performance.now();
    const groups = await openConnections(server.port, connections);
    const openSeconds = (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 500));
    const idle = await server.measure();
    if (process.env.BENCH_WS_SNAPSHOT !== undefined) await server.snapshot(join(process.env.BENCH_WS_SNAPSHOT, `${framework.id}-${connections}.heapsnapshot`));
    const checks = await Promise.all(groups.map((g) => g.check()));
    const echoed = checks.reduce((sum, line) => sum + Number(/^echoed (\d+)/.exec(line)?.[1] ?? 0), 0);
    if (echoed !== connections) throw new Error(`${framework.name}: ${echoed} of ${connections} connections echoed (${checks.join('; ')})`);
    const used = await server.measure();
    await Promise.all(groups.map((g) => g.end()));
    const per = (m, key) => (m[key] - baseline[key]) / connections;
    return {
      connections,
      openSeconds,
      baseline,
      idle,
      used,
      heap: per(idle, 'heapUsed'),
      rss: per(idle, 'rss'),
      external: per(idle, 'external'),
      heapUsed: per(used, 'heapUsed'),
      rssUsed: per(used, 'rss'),
    };
  } finally {
    server.child.kill('SIGKILL');
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? NaN : sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const kib = (bytes) => (bytes / 1024).toFixed(2);

const loadBefore = loadavg();
const results = [];
for (const requested of COUNTS) {
  const connections = Math.min(requested, hardLimit - HEADROOM);
  const note = connections < requested ? `${requested.toLocaleString('en')} asked; the server's descriptor limit is ${hardLimit} (hard limit, not raisable without privilege), so ${connections.toLocaleString('en')} were held` : undefined;
  if (note !== undefined) console.log(note);
  const rounds = new Map(FRAMEWORKS.map((f) => [f, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = FRAMEWORKS.map((_, i) => FRAMEWORKS[(i + round) % FRAMEWORKS.length]);
    for (const framework of order) {
      const figures = await measureOne(framework, requested);
      rounds.get(framework).push(figures);
      console.log(`${connections} conns, round ${round + 1}, ${framework.runtime} ${framework.name}: heap ${kib(figures.heap)} KiB/conn, RSS ${kib(figures.rss)} KiB/conn (after one message: heap ${kib(figures.heapUsed)}, RSS ${kib(figures.rssUsed)}), opened in ${figures.openSeconds.toFixed(1)} s`);
    }
  }
  results.push({ requested, connections, note, rounds });
}
const loadAfter = loadavg();

const table = [
  `WebSocket memory per idle connection, ${new Date().toISOString().slice(0, 10)}, ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.versions.node}${existsSync(bun) ? `, Bun ${spawnSync(bun, ['--version'], { encoding: 'utf8' }).stdout.trim()}` : ''}. ${ROUNDS} rounds, a fresh server process per server per round${pinning ? ' (core 1; clients on core 0)' : ''}; after full GCs; medians, min–max over rounds in brackets. Load average ${loadBefore.map((l) => l.toFixed(1)).join(' ')} before, ${loadAfter.map((l) => l.toFixed(1)).join(' ')} after (the machine is shared).`,
  '',
];
const json = [];
for (const { connections, note, rounds } of results) {
  table.push(`### ${connections.toLocaleString('en')} connections`, '');
  if (note !== undefined) table.push(`${note}.`, '');
  table.push('| runtime | server | JS heap KiB/conn | ÷ raw | RSS KiB/conn | ÷ raw | after one message: heap | RSS |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  for (const framework of FRAMEWORKS) {
    const runs = rounds.get(framework);
    const raw = rounds.get(FRAMEWORKS.find((f) => f.runtime === framework.runtime)) ?? runs;
    const spread = (key) => `${kib(median(runs.map((r) => r[key])))} [${kib(Math.min(...runs.map((r) => r[key])))}–${kib(Math.max(...runs.map((r) => r[key])))}]`;
    // A raw server that keeps (almost) nothing per socket in the JS heap (Bun.serve: its sockets are
    // native) gives no meaningful ratio: under 0.2 KiB, "n/a".
    const ratio = (key) => {
      const base = median(raw.map((r) => r[key]));
      return base < 0.2 * 1024 ? 'n/a' : (median(runs.map((r) => r[key])) / base).toFixed(2);
    };
    table.push(`| ${framework.runtime} | ${framework.name} | ${spread('heap')} | ${ratio('heap')} | ${spread('rss')} | ${ratio('rss')} | ${kib(median(runs.map((r) => r.heapUsed)))} | ${kib(median(runs.map((r) => r.rssUsed)))} |`);
    json.push({ connections, id: framework.id, runtime: framework.runtime, server: framework.name, heap: median(runs.map((r) => r.heap)), rss: median(runs.map((r) => r.rss)), heapRatio: ratio('heap') === 'n/a' ? null : Number(ratio('heap')), rssRatio: ratio('rss') === 'n/a' ? null : Number(ratio('rss')), rounds: runs });
  }
  const base = rounds.get(FRAMEWORKS.find((f) => f.id === 'tessera'));
  const features = FRAMEWORKS.filter((f) => f.feature);
  if (base !== undefined && features.length > 0) {
    table.push('', 'What each feature adds to a Tessera connection (median of the variant minus median of the plain echo):', '', '| feature | JS heap KiB/conn | RSS KiB/conn |', '| --- | ---: | ---: |');
    for (const f of features) {
      const runs = rounds.get(f);
      table.push(`| ${f.name.replace('Tessera + ', '')} | +${kib(median(runs.map((r) => r.heap)) - median(base.map((r) => r.heap)))} | +${kib(median(runs.map((r) => r.rss)) - median(base.map((r) => r.rss)))} |`);
    }
  }
  table.push('');
}
console.log(`\n${table.join('\n')}`);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const full = ROUNDS >= 3 && wanted === undefined;
const name = process.env.BENCH_RESULTS ?? (full ? 'websocket-memory' : 'websocket-memory-partial');
writeFileSync(join(root, 'bench', 'results', `${name}.md`), `${table.join('\n')}\n`);
writeFileSync(join(root, 'bench', 'results', `${name}.json`), `${JSON.stringify(json, null, 2)}\n`);
