// `node bench/websocket-profile.mjs [seconds]`: where a WebSocket echo server's CPU goes, for raw
// `ws` and Tessera on Node, one after the other: each server runs under `node --cpu-prof`
// (100-µs samples) pinned to core 1 while bench/ws-load.mjs (50 connections, 64-byte text, on
// core 0) loads it, then exits on SIGTERM and writes its profile. Prints, per server, the share of
// busy samples (idle left out) by owner: Tessera's bundle (lib/), the ws package, Node's
// internals, and the native rest (the writev syscall, GC, the VM's own); then Tessera's top
// functions. Shares are of the server's own busy time, so other load on the machine changes them
// less than it changes CPU time. Writes bench/results/profile-websocket-echo.md.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const SECONDS = Number(process.argv[2] ?? 6);
const built = join(root, 'bench', '.build', 'ws-tessera.mjs');
const { build } = await import('esbuild');
await build({ entryPoints: [join(root, 'bench', 'servers', 'ws-tessera.ts')], outfile: built, bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', logLevel: 'silent' });
const pinning = spawnSync('sh', ['-c', 'command -v taskset'], { stdio: 'ignore' }).status === 0 && cpus().length >= 2;
const pin = (core) => (pinning ? ['taskset', '-c', String(core)] : []);
const exitOnTerm = `data:text/javascript,process.on('SIGTERM',()=>process.exit(0))`;

async function profile(name, file, port) {
  const dir = join(root, 'bench', '.build', 'profiles', `ws-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const [cmd, ...args] = [...pin(1), process.execPath, '--cpu-prof', '--cpu-prof-interval', '100', '--cpu-prof-dir', dir, '--import', exitOnTerm, file];
  const server = spawn(cmd, args, { cwd: root, env: { ...process.env, PORT: String(port), NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve) => createInterface({ input: server.stdout }).on('line', (line) => line.trim() === 'ready' && resolve()));
  const [lcmd, ...largs] = [...pin(0), process.execPath, 'bench/ws-load.mjs', `ws://127.0.0.1:${port}/echo`, '50', String(SECONDS), '64', '1'];
  const load = spawn(lcmd, largs, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  let messages = 0;
  createInterface({ input: load.stdout }).on('line', (line) => {
    const event = JSON.parse(line);
    if (event.event === 'end') messages = event.messages;
  });
  await new Promise((resolve) => load.once('exit', resolve));
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  const profileFile = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  return { messages, ...summarise(JSON.parse(readFileSync(join(dir, profileFile), 'utf8'))) };
}

function ownerOf(url, functionName) {
  if (url.includes('ws-tessera.mjs')) return 'Tessera (lib/)';
  if (url.includes('/ws/lib/') || url.includes('ws-raw.mjs')) return url.includes('ws-raw.mjs') ? 'the server file' : 'ws';
  if (url.startsWith('node:')) return 'Node internals';
  if (functionName === '(garbage collector)') return 'GC';
  if (url === '') return `native: ${functionName}`;
  return 'other';
}

function summarise(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const counts = new Map();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  let busy = 0;
  const owners = new Map();
  const functions = new Map();
  for (const [id, count] of counts) {
    const { functionName, url, lineNumber } = byId.get(id).callFrame;
    if (functionName === '(idle)') continue;
    busy += count;
    const owner = ownerOf(url, functionName);
    owners.set(owner, (owners.get(owner) ?? 0) + count);
    if (owner === 'Tessera (lib/)') {
      const key = `${functionName || '(anonymous)'} :${lineNumber + 1}`;
      functions.set(key, (functions.get(key) ?? 0) + count);
    }
  }
  return { busy, owners, functions };
}

const load = loadavg();
const raw = await profile('raw', 'bench/servers/ws-raw.mjs', 44_100);
const tessera = await profile('tessera', built, 44_101);
const pct = (n, of) => `${((100 * n) / of).toFixed(1)}%`;
const lines = [
  `# WebSocket echo on Node: where the server's CPU goes (issue 51, ${new Date().toISOString().slice(0, 10)})`,
  '',
  `\`node bench/websocket-profile.mjs ${SECONDS}\`: node --cpu-prof (100-µs samples), each server pinned to core 1 under bench/ws-load.mjs (50 connections, 64-byte text, ${SECONDS} s, core 0). Load average ${load.map((l) => l.toFixed(1)).join(' ')} at the start: other engineers' work shared both cores, so read shares, not rates. Shares are of each server's busy samples (idle left out).`,
  '',
  '| owner | raw ws | Tessera |',
  '| --- | ---: | ---: |',
];
const owners = new Set([...raw.owners.keys(), ...tessera.owners.keys()]);
for (const owner of [...owners].sort((a, b) => (tessera.owners.get(b) ?? 0) - (tessera.owners.get(a) ?? 0))) {
  const r = raw.owners.get(owner) ?? 0;
  const t = tessera.owners.get(owner) ?? 0;
  if ((100 * Math.max(r / raw.busy, t / tessera.busy)) < 0.3) continue;
  lines.push(`| ${owner} | ${pct(r, raw.busy)} | ${pct(t, tessera.busy)} |`);
}
lines.push(`| busy samples / messages echoed | ${raw.busy} / ${raw.messages} | ${tessera.busy} / ${tessera.messages} |`, '', "Tessera's own functions (lines of bench/.build/ws-tessera.mjs, the bundle of lib/), as % of its busy samples:", '', '| function | share |', '| --- | ---: |');
for (const [fn, count] of [...tessera.functions].sort((a, b) => b[1] - a[1]).slice(0, 12)) lines.push(`| ${fn} | ${pct(count, tessera.busy)} |`);
console.log(lines.join('\n'));
writeFileSync(join(root, 'bench', 'results', 'profile-websocket-echo.md'), `${lines.join('\n')}\n`);
