// `npm run bench:ws`: WebSocket echo, Tessera against raw `ws` and Fastify + @fastify/websocket on
// Node, and against raw Bun.serve and Elysia on Bun, in one run. Each round starts a fresh server
// process per framework, pinned to core 1, and loads them in one-second turns, interleaved; the load generator
// (bench/ws-load.mjs: 50 connections, each sending 64 bytes of text and the next on its echo)
// runs pinned to core 0. Figures: echoed messages per second, the server's CPU time per message
// (user + system, from /proc over the measured window), and the round trip's p99. Medians over rounds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
// Two scenarios: `cpu` (this file: the echo under load) and `memory` (bench/websocket-memory.mjs:
// idle connections, per-connection heap and RSS). `npm run bench:ws` runs both;
// `npm run bench:ws -- memory` (or BENCH_WS_SCENARIOS=memory) one of them.
const SCENARIOS = (process.argv[2] ?? process.env.BENCH_WS_SCENARIOS ?? 'cpu,memory').split(',');
if (!SCENARIOS.includes('cpu')) {
  await import('./websocket-memory.mjs');
  process.exit(0);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_DURATION ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const SIZE = Number(process.env.BENCH_MESSAGE_BYTES ?? 64);
const bun = join(root, 'node_modules', '.bin', 'bun');

// Tessera's server is bundled first (as the main bench does), so that no TypeScript loader runs in
// the measured process (swc in process would add tens of MiB of RSS that are not the framework's).
const built = join(root, 'bench', '.build', 'ws-tessera.mjs');
const { build } = await import('esbuild');
await build({ entryPoints: [join(root, 'bench', 'servers', 'ws-tessera.ts')], outfile: built, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });

const FRAMEWORKS = [
  { name: 'ws (raw)', runtime: 'Node', command: [process.execPath, 'bench/servers/ws-raw.mjs'] },
  { name: 'Fastify + @fastify/websocket', runtime: 'Node', command: [process.execPath, 'bench/servers/ws-fastify.mjs'] },
  { name: 'Tessera', runtime: 'Node', command: [process.execPath, built] },
  { name: 'Bun.serve (raw)', runtime: 'Bun', command: [bun, 'bench/servers/ws-bun-raw.mjs'] },
  { name: 'Elysia', runtime: 'Bun', command: [bun, 'bench/servers/ws-elysia.mjs'] },
  { name: 'Tessera', runtime: 'Bun', command: [bun, 'bench/servers/ws-tessera.ts'] },
].filter((f) => f.runtime !== 'Bun' || existsSync(bun));

const pinning = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0 && cpus().length >= 2;
const pin = (core) => (pinning ? ['taskset', '-c', String(core)] : []);
let nextPort = 41_000;

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMiB(pid) {
  const kb = Number(/^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
  return kb / 1024;
}

function startServer(framework) {
  const port = nextPort++;
  const [cmd, ...args] = [...pin(1), ...framework.command];
  const child = spawn(cmd, args, { cwd: root, env: { ...process.env, PORT: String(port), NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${framework.name} on ${framework.runtime} did not start`)), 20_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.trim() === 'ready') {
        clearTimeout(timer);
        resolve({ child, port });
      }
    });
    child.once('exit', (code) => reject(new Error(`${framework.name} exited ${code}`)));
  });
}

/** One turn of load on one server: messages, CPU seconds, and the turn's p99 and length. */
function turn(server, seconds) {
  const [cmd, ...args] = [...pin(0), process.execPath, 'bench/ws-load.mjs', `ws://127.0.0.1:${server.port}/echo`, String(CONNECTIONS), String(seconds), String(SIZE), '0.3'];
  const load = spawn(cmd, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    let cpuAtStart;
    createInterface({ input: load.stdout }).on('line', (line) => {
      const event = JSON.parse(line);
      if (event.event === 'start') cpuAtStart = cpuSeconds(server.child.pid);
      else if (event.event === 'end') resolve({ messages: event.messages, cpu: cpuSeconds(server.child.pid) - cpuAtStart, elapsed: event.elapsed, p99: event.p99 });
    });
    load.once('exit', (code) => code !== 0 && reject(new Error(`the load generator exited ${code}`)));
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

// Each round: every framework's fresh server, then turns of TURN seconds in an order rotated per
// turn, until each has had SECONDS; a round's figures are the sums over its turns. Turns put every
// framework through the same slow and fast stretches of this VM (see bench/README.md "Why turns").
const TURN = 1;
const results = new Map(FRAMEWORKS.map((f) => [f, []]));
for (let round = 0; round < ROUNDS; round++) {
  const servers = new Map();
  for (const framework of FRAMEWORKS) servers.set(framework, await startServer(framework));
  const sums = new Map(FRAMEWORKS.map((f) => [f, { messages: 0, cpu: 0, elapsed: 0, p99s: [] }]));
  try {
    for (let t = 0; t < SECONDS / TURN; t++) {
      const order = FRAMEWORKS.map((_, i) => FRAMEWORKS[(i + t + round) % FRAMEWORKS.length]);
      for (const framework of order) {
        const figures = await turn(servers.get(framework), TURN);
        const sum = sums.get(framework);
        sum.messages += figures.messages;
        sum.cpu += figures.cpu;
        sum.elapsed += figures.elapsed;
        sum.p99s.push(figures.p99);
      }
    }
    for (const framework of FRAMEWORKS) {
      const sum = sums.get(framework);
      const figures = { perSecond: sum.messages / sum.elapsed, cpuMicrosPerMessage: (sum.cpu * 1e6) / sum.messages, busy: sum.cpu / sum.elapsed, p99: median(sum.p99s), rss: rssMiB(servers.get(framework).child.pid) };
      results.get(framework).push(figures);
      console.log(`round ${round + 1} ${framework.runtime} ${framework.name}: ${Math.round(figures.perSecond)} msg/s, ${figures.cpuMicrosPerMessage.toFixed(2)} µs CPU/msg, busy ${(figures.busy * 100).toFixed(0)}%`);
    }
  } finally {
    for (const server of servers.values()) server.child.kill('SIGKILL');
  }
}

const lines = [
  `WebSocket echo, ${CONNECTIONS} connections, ${SIZE}-byte text messages, ${ROUNDS} rounds of ${SECONDS} s in ${TURN}-s turns interleaved across servers, fresh servers per round${pinning ? ', servers on core 1, load on core 0' : ''} (${new Date().toISOString().slice(0, 10)}).`,
  '',
  '| runtime | server | msg/s (median) | CPU µs/msg | ÷ raw (CPU) | p99 µs | RSS MiB | server busy |',
  '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
];
const summary = [];
for (const framework of FRAMEWORKS) {
  const runs = results.get(framework);
  const raw = results.get(FRAMEWORKS.find((f) => f.runtime === framework.runtime));
  const cpu = median(runs.map((r) => r.cpuMicrosPerMessage));
  const rawCpu = median(raw.map((r) => r.cpuMicrosPerMessage));
  const row = { runtime: framework.runtime, server: framework.name, perSecond: median(runs.map((r) => r.perSecond)), cpu, ratio: cpu / rawCpu, p99: median(runs.map((r) => r.p99)), rss: median(runs.map((r) => r.rss)), busy: median(runs.map((r) => r.busy)), rounds: runs };
  summary.push(row);
  lines.push(`| ${row.runtime} | ${row.server} | ${Math.round(row.perSecond)} | ${row.cpu.toFixed(2)} | ${row.ratio.toFixed(2)} | ${Math.round(row.p99)} | ${row.rss.toFixed(0)} | ${(row.busy * 100).toFixed(0)}% |`);
}
console.log(`\n${lines.join('\n')}`);
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
const full = ROUNDS >= 3 && SECONDS >= 5;
writeFileSync(join(root, 'bench', 'results', full ? 'websocket.md' : 'websocket-partial.md'), `${lines.join('\n')}\n`);
writeFileSync(join(root, 'bench', 'results', full ? 'websocket.json' : 'websocket-partial.json'), `${JSON.stringify(summary, null, 2)}\n`);
if (SCENARIOS.includes('memory')) await import('./websocket-memory.mjs');
