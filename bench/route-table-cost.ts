// What building the route table costs (issue 40): the time from `createApp` to the first answer
// of the bench's 50-decoy-route app (`routes` scenario: 51 parametric routes), and the heap each
// route holds once built. Every sample is a fresh Node process (taskset to core 1 when there is
// one), so no JIT or cache carries over; medians over BENCH_ROUNDS samples (default 30).
//   node --import ./scripts/register-swc.mjs bench/route-table-cost.ts
// For an A/B against an earlier commit, check that commit out in a worktree and run the same file
// there: both print one JSON line.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createApp, defineController, defineModule, get, silentLogger, type RouteDefinition } from '../lib/index.js';
import { benchModule } from './servers/tessera-module.js';

const [role, what, count] = process.argv.slice(2);

if (role === 'child' && what === 'cold') {
  const module = await benchModule('routes');
  const started = performance.now();
  const app = await createApp(module, { logger: silentLogger });
  const response = await app.fetch(new Request('http://localhost/posts/42'));
  await response.text();
  console.log(JSON.stringify({ ms: performance.now() - started, status: response.status }));
} else if (role === 'child' && what === 'memory') {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const routes = Number(count);
  const controller = defineController({
    name: 'Many',
    routes: () => {
      const table: Record<string, RouteDefinition> = {};
      for (let i = 0; i < routes; i++) table[`r${i}`] = get(`/r${i}/:id/x`, (ctx) => ({ id: ctx.params.id, i }));
      return table;
    },
  });
  const module = defineModule({ name: 'ManyModule', controllers: [controller] });
  gc();
  const before = process.memoryUsage().heapUsed;
  const app = await createApp(module, { logger: silentLogger });
  gc();
  const after = process.memoryUsage().heapUsed;
  console.log(JSON.stringify({ routes, bytes: after - before, alive: app.routes.length }));
} else {
  const rounds = Number(process.env.BENCH_ROUNDS ?? 30);
  const self = fileURLToPath(import.meta.url);
  const pin = (() => {
    try {
      execFileSync('taskset', ['-c', '1', 'true']);
      return ['taskset', '-c', '1'];
    } catch {
      return [];
    }
  })();
  const run = (...args: string[]) => {
    const [command, ...rest] = [...pin, process.execPath, '--expose-gc', '--import', './scripts/register-swc.mjs', self, 'child', ...args];
    return JSON.parse(execFileSync(command as string, rest, { encoding: 'utf8' }).trim().split('\n').at(-1) as string) as Record<string, number>;
  };
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
  const cold: number[] = [];
  for (let i = 0; i < rounds; i++) cold.push(run('cold').ms as number);
  const perRoute = (n: number) => median(Array.from({ length: 5 }, () => run('memory', String(n)).bytes as number));
  const empty = perRoute(0);
  const thousand = perRoute(1000);
  console.log(
    JSON.stringify({
      coldStartMs: { median: Number(median(cold).toFixed(2)), min: Number(Math.min(...cold).toFixed(2)), max: Number(Math.max(...cold).toFixed(2)), rounds },
      bytesPerRoute: Math.round((thousand - empty) / 1000),
    }),
  );
}
