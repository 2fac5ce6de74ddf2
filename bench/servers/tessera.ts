// Tessera, builder API, served by the Node adapter (`tessera-http/node`'s `serve`). Bundled by
// bench/run.mjs into bench/.build/tessera.mjs with esbuild (zod and jose stay external, as in
// dist/), so cold start is measured on plain JS like every other server.
import { createApp, defineController, defineModule, get, post, type ModuleDefinition, type RouteDefinition } from '../../lib/index.js';
import { serve } from '../../lib/node.js';
import { DECOY_ROUTES, createPost, decoyAnswer, fixedPost, host, port, ready, scenario } from './shared.mjs';
import { otelMode, startOtelSdk } from './otel.mjs';

// The tenants scenarios (tenants-bearer, tenants-key-0, tenants-key-60): the examples/tenants app,
// which provisions its own credentials once listening (see tessera-tenants.ts).
const tenants = scenario.startsWith('tenants-') ? await import('./tessera-tenants.js') : undefined;

async function benchModule(): Promise<ModuleDefinition> {
  if (scenario === 'hello') {
    const controller = defineController({
      name: 'HelloController',
      prefix: '/hello',
      routes: () => ({ greet: get('/:name', (ctx) => ({ message: `Hello, ${ctx.params.name}!` })) }),
    });
    return defineModule({ name: 'BenchModule', controllers: [controller] });
  }
  if (scenario === 'create') {
    const { CreatePost } = await import('./schemas.mjs');
    const controller = defineController({
      name: 'PostsController',
      prefix: '/posts',
      routes: () => ({ create: post('/', { body: CreatePost, status: 201 }, (ctx) => createPost(ctx.body)) }),
    });
    return defineModule({ name: 'BenchModule', controllers: [controller] });
  }
  if (scenario === 'routes') {
    const controller = defineController({
      name: 'RoutesController',
      routes: () => {
        const routes: Record<string, RouteDefinition> = {};
        for (const r of DECOY_ROUTES) {
          routes[`r${r.index}`] = get(r.path, (ctx) => decoyAnswer(r.index, (ctx.params as Record<string, string>).id ?? ''));
        }
        routes.post = get('/posts/:id', (ctx) => fixedPost(ctx.params.id));
        return routes;
      },
    });
    return defineModule({ name: 'BenchModule', controllers: [controller] });
  }
  if (scenario === 'me') {
    const { meModule } = await import('./tessera-auth.js');
    return meModule();
  }
  if (tenants !== undefined) return tenants.tenantsModule();
  throw new Error(`unknown scenario ${scenario}`);
}

// BENCH_OTEL (npm run bench:otel): openTelemetry() with no SDK (`api`) or with the SDK (`sdk`).
await startOtelSdk();
const instrumentation = otelMode === 'none' ? undefined : (await import('../../lib/otel/index.js')).openTelemetry();
const app = await createApp(await benchModule(), instrumentation ? { instrumentation } : {});
await serve(app, { port, host });
if (tenants !== undefined) await tenants.provisionTenants(port, host);
ready();
