// Type-level tests: `npm test` type-checks this file, so a wrong inference fails the build.
import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createToken, defineController, get, patch, post, type QueryRecord } from '../index.js';

const CreatePost = z.object({ title: z.string().min(1), body: z.string().default('') });
const Post = z.object({ id: z.string(), title: z.string() });

describe('handler argument inference', () => {
  it('types the body as the schema output, without annotations', () => {
    post('/', { body: CreatePost }, (ctx) => {
      expectTypeOf(ctx.body).toEqualTypeOf<{ title: string; body: string }>();
      expectTypeOf(ctx.body).toEqualTypeOf<z.output<typeof CreatePost>>();
      // @ts-expect-error: `name` is not a field of CreatePost
      void ctx.body.name;
      return undefined;
    });
  });

  it('types path parameters exactly from the path literal: a misspelt name does not compile', () => {
    get('/:postId/comments/:commentId', (ctx) => {
      expectTypeOf(ctx.params).toEqualTypeOf<{ readonly postId: string; readonly commentId: string }>();
      // @ts-expect-error: `postid` is not a parameter of the path
      void ctx.params.postid;
      return null;
    });
    get('/files/*', (ctx) => expectTypeOf(ctx.params).toEqualTypeOf<{ readonly '*': string }>());
    get('/', (ctx) => {
      // @ts-expect-error: a path without parameters has none
      void ctx.params.id;
      return null;
    });
  });

  it('types the prefix parameters too for routes built by the helpers a controller\u2019s routes receive', () => {
    class Store {}
    defineController({
      name: 'TenantPosts',
      prefix: '/tenants/:tenantId/posts',
      inject: [Store],
      routes: (store, { get: bound, del }) => {
        expectTypeOf(store).toEqualTypeOf<Store>();
        return {
          one: bound('/:id', (ctx) => {
            expectTypeOf(ctx.params).toEqualTypeOf<{ readonly tenantId: string; readonly id: string }>();
            // @ts-expect-error: `tenant` is not a parameter of '/tenants/:tenantId/posts/:id'
            void ctx.params.tenant;
            return null;
          }),
          all: del('/', (ctx) => {
            expectTypeOf(ctx.params).toEqualTypeOf<{ readonly tenantId: string }>();
            return undefined;
          }),
        };
      },
    });
    defineController({
      name: 'NoDeps',
      prefix: '/files',
      routes: ({ get: bound }) => ({ one: bound('/*', (ctx) => ctx.params['*']) }),
    });
  });

  it('types a parameter only where it starts a segment, as the router reads it', () => {
    get(':id', (ctx) => expectTypeOf(ctx.params.id).toEqualTypeOf<string>());
    // `/prefix-:id` is refused at boot; its type promises no `id` either.
    // @ts-expect-error: not a parameter
    get('/prefix-:id', (ctx) => ctx.params.id);
  });

  it('types the query from its schema, or as the parsed record without one', () => {
    get('/', { query: z.object({ page: z.coerce.number() }) }, (ctx) => {
      expectTypeOf(ctx.query).toEqualTypeOf<{ page: number }>();
      return null;
    });
    get('/', (ctx) => expectTypeOf(ctx.query).toEqualTypeOf<QueryRecord>());
    post('/', { body: CreatePost }, (ctx) => expectTypeOf(ctx.query).toEqualTypeOf<QueryRecord>());
  });

  it('checks the result against a declared response schema', () => {
    get('/:id', { response: Post }, (ctx) => ({ id: ctx.params.id, title: 't' }));
    // @ts-expect-error: `title` must be a string
    get('/:id', { response: Post }, (ctx) => ({ id: ctx.params.id, title: 1 }));
    patch('/:id', { response: Post }, () => new Response(null, { status: 204 }));
  });

  it('types controller dependencies from the inject list', () => {
    class Store {
      list(): string[] {
        return [];
      }
    }
    const LIMIT = createToken<number>('LIMIT');
    defineController({
      name: 'C',
      inject: [Store, LIMIT],
      routes: (store, limit) => {
        expectTypeOf(store).toEqualTypeOf<Store>();
        expectTypeOf(limit).toEqualTypeOf<number>();
        return { list: get('/', () => store.list().slice(0, limit)) };
      },
    });
  });
});
