// Rough req/s of the Node adapter against raw node:http and @hono/node-server, one hello route.
// Not a test and not the real benchmark (bench/run.mjs is); see docs/toolchain.md for the method.
// Usage: node bench/node-adapter-smoke.mjs [seconds=5] [rounds=3]
// Each round starts a fresh server process per contender (pinned to core 1; the load generator
// runs here, pinned to core 0) and the contenders are interleaved.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const self = fileURLToPath(import.meta.url);
const [, , mode, kind] = process.argv;

if (mode === 'server') {
  const body = JSON.stringify({ hello: 'world' });
  let port;
  if (kind === 'raw') {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      if (req.method === 'GET' && req.url === '/hello') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        res.end(body);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    port = server.address().port;
  } else if (kind === 'hono') {
    const { Hono } = await import('hono');
    const { serve } = await import('@hono/node-server');
    const app = new Hono();
    app.get('/hello', (c) => c.json({ hello: 'world' }));
    port = await new Promise((r) => serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => r(info.port)));
  } else {
    const { createApp, defineModule, defineController, get } = await import('../lib/index.ts');
    const controller = defineController({ name: 'Hello', routes: () => ({ hello: get('/hello', () => ({ hello: 'world' })) }) });
    const app = await createApp(defineModule({ name: 'Bench', controllers: [controller] }));
    port = (await app.listen(0)).port;
  }
  // The parent asks for this process's CPU time: CPU per request survives a noisy machine
  // better than req/s does.
  process.on('message', () => process.send(process.cpuUsage()));
  process.stdout.write(`${port}\n`);
} else {
  const seconds = Number(process.argv[2] ?? 5);
  const rounds = Number(process.argv[3] ?? 3);
  const { default: autocannon } = await import('autocannon');
  const kinds = ['raw', 'tessera', 'hono'];
  const results = Object.fromEntries(kinds.map((k) => [k, []]));
  const cpu = Object.fromEntries(kinds.map((k) => [k, []]));
  const cpuOf = (child) =>
    new Promise((resolve) => {
      child.once('message', (u) => resolve(u.user + u.system));
      child.send('cpu');
    });
  for (let round = 0; round < rounds; round++) {
    for (const k of kinds) {
      const child = spawn('taskset', ['-c', '1', process.execPath, '--import', 'tsx', self, 'server', k], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
      const port = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(Number(String(d).trim()))));
      await autocannon({ url: `http://127.0.0.1:${port}/hello`, connections: 50, duration: 1 }); // warm-up
      const before = await cpuOf(child);
      const r = await autocannon({ url: `http://127.0.0.1:${port}/hello`, connections: 50, duration: seconds });
      const usPerRequest = ((await cpuOf(child)) - before) / r.requests.total;
      results[k].push(r.requests.average);
      cpu[k].push(usPerRequest);
      child.kill();
      await new Promise((r2) => child.once('exit', r2));
      console.log(`round ${round + 1} ${k.padEnd(8)} ${Math.round(r.requests.average)} req/s, server CPU ${usPerRequest.toFixed(1)} µs/req (errors ${r.errors}, non2xx ${r.non2xx})`);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  for (const k of kinds) {
    const xs = results[k];
    console.log(`${k.padEnd(8)} median ${Math.round(median(xs))} req/s  (min ${Math.round(Math.min(...xs))}, max ${Math.round(Math.max(...xs))})  ratio to raw ${(median(xs) / median(results.raw)).toFixed(2)}; CPU median ${median(cpu[k]).toFixed(1)} µs/req`);
  }
}
