// The create scenario with a body and a response schema in zod, valibot or ArkType (issue 39:
// `npm run bench:validators`), the same rules in each: a non-empty title, a body defaulting to
// '', the created post validated (and stripped) on the way out. Node only: tessera.ts imports
// it lazily when BENCH_VALIDATOR is set, so no other server or bundle carries valibot or ArkType.
import { type } from 'arktype';
import * as v from 'valibot';
import { z } from 'zod';
import { defineController, defineModule, post, type ModuleDefinition } from '../../lib/index.js';
import { createPost } from './shared.mjs';

/** The validators the create route can be measured with. */
export type BenchValidator = 'zod' | 'valibot' | 'arktype';

/** The body and response schemas of `POST /posts` in each validator. */
export const CREATE_ROUTE_SCHEMAS = {
  zod: {
    CreatePost: z.object({ title: z.string().min(1), body: z.string().default('') }),
    Post: z.object({ id: z.string(), title: z.string(), body: z.string(), createdAt: z.string() }),
  },
  valibot: {
    CreatePost: v.object({ title: v.pipe(v.string(), v.minLength(1)), body: v.optional(v.string(), '') }),
    Post: v.object({ id: v.string(), title: v.string(), body: v.string(), createdAt: v.string() }),
  },
  arktype: {
    CreatePost: type({ '+': 'delete', title: 'string > 0', body: 'string = ""' }),
    Post: type({ '+': 'delete', id: 'string', title: 'string', body: 'string', createdAt: 'string' }),
  },
} as const;

/**
 * The create scenario's module with `validator`'s schemas.
 *
 * @example
 * const app = await createApp(validatorModule('valibot'));
 */
export function validatorModule(validator: string): ModuleDefinition {
  if (!(validator in CREATE_ROUTE_SCHEMAS)) throw new Error(`BENCH_VALIDATOR: unknown validator ${validator} (zod, valibot, arktype)`);
  const { CreatePost, Post } = CREATE_ROUTE_SCHEMAS[validator as BenchValidator];
  const controller = defineController({
    name: 'PostsController',
    prefix: '/posts',
    routes: () => ({ create: post('/', { body: CreatePost, response: Post, status: 201 }, (ctx) => createPost(ctx.body)) }),
  });
  return defineModule({ name: 'BenchModule', controllers: [controller] });
}
