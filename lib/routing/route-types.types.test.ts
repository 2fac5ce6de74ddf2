import { describe, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineController, del, get, post, type RouteTypesOf } from '../index.js';

// What route and controller definitions carry at compile time, for typed clients. Checked by
// `npm run typecheck`; the `it` blocks only give the checks a name in the test run.
const CreatePost = z.object({ title: z.string(), body: z.string().default('') });
const Post = z.object({ id: z.string(), title: z.string() });

const posts = defineController({
  name: 'PostsController',
  prefix: '/posts',
  routes: () => ({
    list: get('/', () => [{ id: '1', title: 't' }]),
    create: post('/', { body: CreatePost, response: Post, status: 201 }, (ctx) => ({ id: '1', title: ctx.body.title })),
    remove: del('/:id', () => undefined),
  }),
});
type Routes = NonNullable<(typeof posts)['~routes']>;

describe('typed route definitions', () => {
  it('keep the method, the path literal, the schemas and the handler result of each named route', () => {
    expectTypeOf<RouteTypesOf<Routes['create']>['method']>().toEqualTypeOf<'POST'>();
    expectTypeOf<RouteTypesOf<Routes['create']>['path']>().toEqualTypeOf<'/'>();
    expectTypeOf<RouteTypesOf<Routes['create']>['body']>().toEqualTypeOf<typeof CreatePost>();
    expectTypeOf<RouteTypesOf<Routes['create']>['response']>().toEqualTypeOf<typeof Post>();
    expectTypeOf<RouteTypesOf<Routes['remove']>['path']>().toEqualTypeOf<'/:id'>();
    expectTypeOf<RouteTypesOf<Routes['remove']>['result']>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteTypesOf<Routes['list']>['result']>().toEqualTypeOf<{ id: string; title: string }[]>();
  });

  it('keep the controller prefix and route names', () => {
    expectTypeOf<NonNullable<(typeof posts)['~prefix']>>().toEqualTypeOf<'/posts'>();
    expectTypeOf<keyof Routes>().toEqualTypeOf<'list' | 'create' | 'remove'>();
  });

  it('still check a handler result against the response schema', () => {
    // @ts-expect-error the response schema has no `extra` and needs `title`
    post('/', { response: Post }, () => ({ id: '1', extra: true }));
  });
});
