// `node bench/client-typecheck.mjs`: what the typed client costs the editor. Generates an app of
// 200 routes in 10 controllers (path and prefix parameters, body, query and response schemas),
// then type-checks it three times with `tsc --extendedDiagnostics`: alone, with the named client
// (createClient) of all 200 routes, and with the type-only client (createFetchClient typed by
// ApiOf of all 10 controllers, imported with `import type`), each with the same 30 calls that read
// typed data. Reports instantiations (deterministic) and check time (median of BENCH_TSC_ROUNDS,
// default 5), as ratios to the app alone. The same three with the app's schemas in valibot (issue 39).
// Writes bench/results/client-typecheck.md.
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const dir = join(root, 'bench', '.build', 'client-typecheck');
const rounds = Number(process.env.BENCH_TSC_ROUNDS ?? 5);
const CONTROLLERS = 10;
const ROUTES = 20;

/** The app's three schemas, and its partial update schema, in zod or in valibot (issue 39). */
const SCHEMAS = {
  zod: {
    lines: [
      "import { z } from 'zod';",
      'const Item = z.object({ id: z.string(), name: z.string(), count: z.number(), tags: z.array(z.string()) });',
      'const CreateItem = z.object({ name: z.string().min(1), count: z.number().default(0), tags: z.array(z.string()).default([]) });',
      'const Search = z.object({ q: z.string().optional(), page: z.coerce.number().default(1), tag: z.array(z.string()).optional() });',
    ],
    partial: 'CreateItem.partial()',
  },
  valibot: {
    lines: [
      "import * as v from 'valibot';",
      'const Item = v.object({ id: v.string(), name: v.string(), count: v.number(), tags: v.array(v.string()) });',
      'const CreateItem = v.object({ name: v.pipe(v.string(), v.minLength(1)), count: v.optional(v.number(), 0), tags: v.optional(v.array(v.string()), []) });',
      "const Search = v.object({ q: v.optional(v.string()), page: v.optional(v.pipe(v.string(), v.transform(Number), v.number()), '1'), tag: v.optional(v.array(v.string())) });",
    ],
    partial: 'v.partial(CreateItem)',
  },
};

function appSource(validator) {
  const schemas = SCHEMAS[validator];
  const lines = [...schemas.lines, "import { defineController, del, get, patch, post } from '../../../lib/index.js';"];
  for (let c = 0; c < CONTROLLERS; c++) {
    const routes = [];
    for (let r = 0; r < ROUTES; r++) {
      const name = `c${c}r${r}`;
      switch (r % 5) {
        case 0: routes.push(`${name}: get('/${name}/:id', { response: Item }, (ctx) => ({ id: ctx.params.id, name: 'n', count: 1, tags: [] }))`); break;
        case 1: routes.push(`${name}: post('/${name}', { body: CreateItem, response: Item, status: 201 }, (ctx) => ({ id: '1', ...ctx.body }))`); break;
        case 2: routes.push(`${name}: get('/${name}', { query: Search }, (ctx) => ({ page: ctx.query.page, q: ctx.query.q ?? null }))`); break;
        case 3: routes.push(`${name}: patch('/${name}/:id', { body: ${schemas.partial} }, (ctx) => ({ id: ctx.params.id, changed: Object.keys(ctx.body) }))`); break;
        default: routes.push(`${name}: del('/${name}/:id', () => undefined)`);
      }
    }
    lines.push(`export const controller${c} = defineController({ name: 'C${c}', prefix: '/t/:tenant/c${c}', routes: () => ({\n  ${routes.join(',\n  ')},\n}) });`);
  }
  return lines.join('\n') + '\n';
}

function clientSource(app = './app.js') {
  const names = Array.from({ length: CONTROLLERS }, (_, c) => `controller${c}`);
  const calls = [];
  for (let c = 0; c < CONTROLLERS; c++) {
    calls.push(`  const a${c} = await client.c${c}r0({ params: { tenant: 't', id: '1' } }); if (a${c}.ok) a${c}.data.tags.push('x');`);
    calls.push(`  const b${c} = await client.c${c}r1({ params: { tenant: 't' }, body: { name: 'n' } }); if (b${c}.ok) void b${c}.data.count;`);
    calls.push(`  const s${c} = await client.c${c}r2({ params: { tenant: 't' }, query: { tag: ['a'] } }); if (s${c}.ok) void s${c}.data.page;`);
  }
  return [
    "import { createClient } from '../../../lib/client/index.js';",
    `import { ${names.join(', ')} } from '${app}';`,
    `export const client = createClient([${names.join(', ')}], 'http://api.test');`,
    'export async function use(): Promise<void> {',
    ...calls,
    '}',
    '',
  ].join('\n');
}

function fetchClientSource(app = './app.js') {
  const names = Array.from({ length: CONTROLLERS }, (_, c) => `controller${c}`);
  const calls = [];
  for (let c = 0; c < CONTROLLERS; c++) {
    calls.push(`  const a${c} = await api.GET('/t/:tenant/c${c}/c${c}r0/:id', { params: { tenant: 't', id: '1' } }); if (a${c}.ok) a${c}.data.tags.push('x');`);
    calls.push(`  const b${c} = await api.POST('/t/:tenant/c${c}/c${c}r1', { params: { tenant: 't' }, body: { name: 'n' } }); if (b${c}.ok) void b${c}.data.count;`);
    calls.push(`  const s${c} = await api.GET('/t/:tenant/c${c}/c${c}r2', { params: { tenant: 't' }, query: { tag: ['a'] } }); if (s${c}.ok) void s${c}.data.page;`);
  }
  return [
    "import { createFetchClient, type ApiOf } from '../../../lib/client/index.js';",
    `import type { ${names.join(', ')} } from '${app}';`,
    `export type Api = ApiOf<[${names.map((n) => `typeof ${n}`).join(', ')}]>;`,
    "export const api = createFetchClient<Api>('http://api.test');",
    'export async function use(): Promise<void> {',
    ...calls,
    '}',
    '',
  ].join('\n');
}

const compilerOptions = {
  target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2023', 'DOM', 'DOM.Iterable'], types: ['node'],
  strict: true, noUncheckedIndexedAccess: true, verbatimModuleSyntax: true, experimentalDecorators: true, skipLibCheck: true, noEmit: true,
};

function measure(files) {
  const config = join(dir, `tsconfig.${files.join('+').replace(/[^a-z0-9+-]/gi, '_')}.json`);
  writeFileSync(config, JSON.stringify({ compilerOptions, files }, null, 2));
  const runs = [];
  for (let i = 0; i < rounds; i++) {
    const out = execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', config, '--extendedDiagnostics'], { encoding: 'utf8' });
    const read = (label) => Number((new RegExp(`^${label}:\\s+([\\d.]+)`, 'm').exec(out) ?? [])[1]);
    runs.push({ instantiations: read('Instantiations'), check: read('Check time'), total: read('Total time') });
  }
  const median = (key) => runs.map((r) => r[key]).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
  return { instantiations: median('instantiations'), check: median('check'), total: median('total') };
}

const cpus = availableParallelism();
const loadAtStart = loadavg()[0];
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });
writeFileSync(join(dir, 'app.ts'), appSource('zod'));
writeFileSync(join(dir, 'client.ts'), clientSource());
writeFileSync(join(dir, 'fetch-client.ts'), fetchClientSource());
// The same app with valibot schemas (issue 39: types inferred through Standard Schema).
writeFileSync(join(dir, 'app-valibot.ts'), appSource('valibot'));
writeFileSync(join(dir, 'client-valibot.ts'), clientSource('./app-valibot.js'));
writeFileSync(join(dir, 'fetch-client-valibot.ts'), fetchClientSource('./app-valibot.js'));
const without = measure(['app.ts']);
const withClient = measure(['app.ts', 'client.ts']);
const withFetchClient = measure(['app.ts', 'fetch-client.ts']);
const valibotApp = measure(['app-valibot.ts']);
const valibotClient = measure(['app-valibot.ts', 'client-valibot.ts']);
const valibotFetchClient = measure(['app-valibot.ts', 'fetch-client-valibot.ts']);
const ratio = (a, b) => (a / b).toFixed(2);
const row = (label, m, base = without) => `| ${label} | ${m.instantiations} (${ratio(m.instantiations, base.instantiations)}x) | ${m.check} (${ratio(m.check, base.check)}x) | ${m.total} (${ratio(m.total, base.total)}x) |`;
const lines = [
  `# Typed clients: type-checking cost (${new Date().toISOString().slice(0, 10)})`,
  '',
  `${CONTROLLERS * ROUTES} routes in ${CONTROLLERS} controllers; \`tsc --extendedDiagnostics\`, median of ${rounds} runs; node ${process.version}. Ratios to the app alone. 1-min load average ${loadAtStart.toFixed(1)} at start, ${loadavg()[0].toFixed(1)} at end (${cpus} cores): times move with it, instantiations do not.`,
  '',
  '| | instantiations | check time (s) | total time (s) |',
  '|---|---:|---:|---:|',
  `| app alone | ${without.instantiations} | ${without.check} | ${without.total} |`,
  row('app + named client (createClient) of all routes + 30 typed calls', withClient),
  row('app + type-only client (createFetchClient, ApiOf of 10 controllers) + 30 typed calls', withFetchClient),
  '',
  'The same app with valibot schemas (the types inferred through Standard Schema); ratios to the valibot app alone, and the valibot app to the zod app:',
  '',
  '| | instantiations | check time (s) | total time (s) |',
  '|---|---:|---:|---:|',
  row('valibot app alone (vs zod app alone)', valibotApp),
  row('valibot app + named client + 30 typed calls', valibotClient, valibotApp),
  row('valibot app + type-only client + 30 typed calls', valibotFetchClient, valibotApp),
  '',
];
mkdirSync(join(root, 'bench', 'results'), { recursive: true });
writeFileSync(join(root, 'bench', 'results', 'client-typecheck.md'), lines.join('\n'));
console.log(lines.join('\n'));
const target = withFetchClient.check / without.check;
console.log(`${target < 1.5 ? 'PASS' : 'FAIL'}  type-only client: check time ${ratio(withFetchClient.check, without.check)}x the app alone (target < 1.5)`);
const valibotTarget = valibotFetchClient.check / valibotApp.check;
console.log(`${valibotTarget < 1.5 ? 'PASS' : 'FAIL'}  valibot app, type-only client: check time ${ratio(valibotFetchClient.check, valibotApp.check)}x the app alone (target < 1.5)`);
