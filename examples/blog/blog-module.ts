import { defineController, defineModule, defineProvider, del, get, patch, post, systemClock, type Clock } from '../../lib/index.js';
import { CreatePost, Post, PostList, UpdatePost } from './post-schemas.js';
import { CLOCK, PostsStore } from './posts-store.js';
import { POST_DELETED, POST_NOT_FOUND } from './openapi.js';

/** The blog's CRUD routes under `/posts`. */
export const postsController = defineController({
  name: 'PostsController',
  prefix: '/posts',
  inject: [PostsStore],
  routes: (store) => ({
    list: get('/', { response: PostList }, () => store.list()),
    get: get('/:id', { response: Post, metadata: [POST_NOT_FOUND] }, (ctx) => store.get(ctx.params.id)),
    create: post('/', { body: CreatePost, response: Post, status: 201 }, (ctx) => store.create(ctx.body)),
    update: patch('/:id', { body: UpdatePost, response: Post, metadata: [POST_NOT_FOUND] }, (ctx) => store.update(ctx.params.id, ctx.body)),
    remove: del('/:id', { metadata: [POST_DELETED, POST_NOT_FOUND] }, (ctx) => store.remove(ctx.params.id)),
  }),
});

/**
 * The reference blog application, builder style.
 *
 * @example
 * const app = await createApp(createBlogModule({ clock: createManualClock(0) }));
 */
export function createBlogModule(options: { clock?: Clock } = {}) {
  return defineModule({
    name: 'BlogModule',
    providers: [{ provide: CLOCK, useValue: options.clock ?? systemClock }, defineProvider(PostsStore, [CLOCK])],
    controllers: [postsController],
  });
}
