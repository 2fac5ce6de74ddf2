// The Tessera app of the scenarios every runtime runs (hello, create, routes), builder API, for
// tessera.ts (Node), tessera-fetch.ts (Bun, Deno) and tessera-worker.ts (workerd).
import { defineController, defineModule, get, post, type ModuleDefinition, type RouteDefinition } from '../../lib/index.js';
import { DECOY_ROUTES, createPost, decoyAnswer, fixedPost } from './shared.mjs';

/** @example const app = await createApp(await benchModule('hello')); */
export async function benchModule(scenario: string): Promise<ModuleDefinition> {
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
  throw new Error(`unknown scenario ${scenario}`);
}
