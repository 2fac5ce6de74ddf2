import { createApp, createManualClock, defineController, defineModule, defineProvider, del, get, patch, post, type Clock, type StandardSchemaV1 } from '../../lib/index.js';
import { POST_DELETED, POST_NOT_FOUND } from '../../examples/blog/openapi.js';
import { CLOCK, PostsStore } from '../../examples/blog/posts-store.js';
import type { CreatePost as CreatePostValue, Post as PostValue, UpdatePost as UpdatePostValue } from '../../examples/blog/post-schemas.js';
import { BLOG_T0, type BlogFactory } from './blog-checks.js';

// The blog's CRUD module (examples/blog/blog-module.ts) over any set of post schemas: the same
// routes, store and metadata, so that only the validator differs between the blogs compared.

/** The four schemas of the blog, in any Standard Schema library, giving the blog's types. */
export interface PostSchemas {
  readonly CreatePost: StandardSchemaV1<unknown, CreatePostValue>;
  readonly UpdatePost: StandardSchemaV1<unknown, UpdatePostValue>;
  readonly Post: StandardSchemaV1<unknown, PostValue>;
  readonly PostList: StandardSchemaV1<unknown, PostValue[]>;
}

/**
 * The blog module with `schemas` in place of the zod ones.
 *
 * @example
 * const module = createSchemaBlogModule(valibotSchemas, { clock });
 */
export function createSchemaBlogModule(schemas: PostSchemas, options: { clock?: Clock } = {}) {
  const postsController = defineController({
    name: 'PostsController',
    prefix: '/posts',
    inject: [PostsStore],
    routes: (store) => ({
      list: get('/', { response: schemas.PostList }, () => store.list()),
      get: get('/:id', { response: schemas.Post, metadata: [POST_NOT_FOUND] }, (ctx) => store.get(ctx.params.id)),
      create: post('/', { body: schemas.CreatePost, response: schemas.Post, status: 201 }, (ctx) => store.create(ctx.body)),
      update: patch('/:id', { body: schemas.UpdatePost, response: schemas.Post, metadata: [POST_NOT_FOUND] }, (ctx) => store.update(ctx.params.id, ctx.body)),
      remove: del('/:id', { metadata: [POST_DELETED, POST_NOT_FOUND] }, (ctx) => store.remove(ctx.params.id)),
    }),
  });
  return defineModule({
    name: 'BlogModule',
    providers: [{ provide: CLOCK, useValue: options.clock ?? createManualClock(BLOG_T0) }, defineProvider(PostsStore, [CLOCK])],
    controllers: [postsController],
  });
}

/**
 * A {@link BlogFactory} for the blog over `schemas`.
 *
 * @example
 * describeBlogChecks('blog API (valibot)', schemaBlog(valibotSchemas));
 */
export function schemaBlog(schemas: PostSchemas): BlogFactory {
  return async () => {
    const clock = createManualClock(BLOG_T0);
    return { app: await createApp(createSchemaBlogModule(schemas, { clock })), clock };
  };
}
