/**
 * OpenAPI generation for a 1,000-route app: 100 controllers x 10 routes, with body, query and
 * response schemas. Run: node --import ./scripts/register-swc.mjs bench/openapi-generate.ts
 *
 * Four figures, because schema conversions are cached per schema object:
 * - first: the very first call in the process (cold caches, cold JIT);
 * - cold: a fresh app with fresh schema objects each round (every schema converted again);
 * - cold, zod only: the same with the fast converter off (every schema through z.toJSONSchema),
 *   interleaved round by round with `cold` so both see the same machine load;
 * - warm: the same app again (conversions cached; document assembly only).
 * Rounds are repeated and the median reported, with min-max, because this machine is noisy.
 */
import { z } from 'zod';
import { createApp, defineController, defineModule, del, get, patch, post, put, type App, type ControllerDefinition } from '../lib/index.js';
import { generateOpenApiDocument } from '../lib/openapi/index.js';
import { useFastConversion } from '../lib/openapi/schema-conversion.js';

const CONTROLLERS = 100;
const ROUNDS = 21;
const OPTIONS = { title: 'Bench', version: '1.0.0' };

/** One resource: an entity (named), its create/update inputs and a paging query; plus per-route schemas. */
function resourceController(i: number): ControllerDefinition {
  const Entity = z
    .object({
      id: z.string(),
      name: z.string().min(1),
      tags: z.array(z.string()),
      count: z.number().int(),
      createdAt: z.date(),
      owner: z.object({ id: z.string(), email: z.email() }),
      status: z.enum(['draft', 'live', 'archived']),
      note: z.string().nullable(),
    })
    .meta({ id: `Entity${i}` });
  const CreateEntity = z.object({ name: z.string().min(1), tags: z.array(z.string()).default([]), status: z.enum(['draft', 'live']).default('draft') });
  const UpdateEntity = CreateEntity.partial();
  const Paging = z.object({ page: z.coerce.number().int().min(1).default(1), size: z.coerce.number().int().max(100).default(20), q: z.string().optional() });
  const page = z.object({ items: z.array(Entity), total: z.number().int() });
  const action = (name: string) => z.object({ action: z.literal(name), reason: z.string().optional(), at: z.date() });
  const result = (name: string) => z.object({ ok: z.boolean(), action: z.literal(name), entity: Entity });
  const none = () => undefined;
  return defineController({
    name: `Resource${i}Controller`,
    prefix: `/resources${i}`,
    routes: () => ({
      list: get('/', { query: Paging, response: page }, none),
      get: get('/:id', { response: Entity }, none),
      create: post('/', { body: CreateEntity, response: Entity, status: 201 }, none),
      update: patch('/:id', { body: UpdateEntity, response: Entity }, none),
      replace: put('/:id', { body: CreateEntity, response: Entity }, none),
      remove: del('/:id', { status: 204 }, none),
      search: get('/search', { query: Paging.extend({ q: z.string() }), response: z.array(Entity) }, none),
      archive: post('/:id/archive', { body: action('archive'), response: result('archive') }, none),
      publish: post('/:id/publish', { body: action('publish'), response: result('publish') }, none),
      history: get('/:id/history', { query: z.object({ since: z.iso.datetime().optional() }), response: z.array(z.object({ at: z.date(), change: z.string() })) }, none),
    }),
  });
}

async function buildApp(): Promise<App> {
  const controllers = Array.from({ length: CONTROLLERS }, (_, i) => resourceController(i));
  return createApp(defineModule({ name: 'BenchModule', controllers }));
}

/** Wall time, and CPU time beside it: on a shared 2-core machine wall time is mostly other load. */
function time(fn: () => unknown, cpuInto?: number[]): number {
  const cpu = process.cpuUsage();
  const start = performance.now();
  fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  cpuInto?.push((used.user + used.system) / 1000);
  return wall;
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] as number;
  return `median ${median.toFixed(1)} ms (min ${(sorted[0] as number).toFixed(1)}, max ${(sorted.at(-1) as number).toFixed(1)}, n=${sorted.length})`;
}

const firstApp = await buildApp();
const routeCount = firstApp.routes.length;
let doc: ReturnType<typeof generateOpenApiDocument> | undefined;
const firstCpu: number[] = [];
const first = time(() => (doc = generateOpenApiDocument(firstApp, OPTIONS)), firstCpu);

const cold: number[] = [];
const coldCpu: number[] = [];
const zodOnly: number[] = [];
const zodOnlyCpu: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  const app = await buildApp(); // fresh schema objects: nothing cached
  cold.push(time(() => generateOpenApiDocument(app, OPTIONS), coldCpu));
  const other = await buildApp();
  const previous = useFastConversion(false);
  zodOnly.push(time(() => generateOpenApiDocument(other, OPTIONS), zodOnlyCpu));
  useFastConversion(previous);
}

const warm: number[] = [];
const warmCpu: number[] = [];
for (let round = 0; round < ROUNDS; round++) warm.push(time(() => generateOpenApiDocument(firstApp, OPTIONS), warmCpu));

const operations = Object.values(doc?.paths ?? {}).reduce((n, item) => n + Object.keys(item).length, 0);
console.log(`routes: ${routeCount}, operations: ${operations}, component schemas: ${Object.keys(doc?.components.schemas ?? {}).length}, JSON: ${(JSON.stringify(doc).length / 1024).toFixed(0)} KiB`);
console.log(`first call (cold caches, cold JIT): wall ${first.toFixed(1)} ms, cpu ${(firstCpu[0] ?? 0).toFixed(1)} ms`);
console.log(`cold (fresh schemas each round):     wall ${summary(cold)}`);
console.log(`                                     cpu  ${summary(coldCpu)}`);
console.log(`cold, zod only (fast converter off): wall ${summary(zodOnly)}`);
console.log(`                                     cpu  ${summary(zodOnlyCpu)}`);
console.log(`warm (same app, cached conversions): wall ${summary(warm)}`);
console.log(`                                     cpu  ${summary(warmCpu)}`);
