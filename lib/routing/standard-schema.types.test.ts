// Type-level tests: `npm test` type-checks this file, so a wrong inference fails the build.
import { describe, expectTypeOf, it } from 'vitest';
import * as v from 'valibot';
import { type } from 'arktype';
import { get, post } from '../index.js';

describe('handler types from valibot and ArkType schemas', () => {
  it('types the body, query and params from the schemas\' output side', () => {
    const Create = v.object({ title: v.string(), tags: v.optional(v.array(v.string()), []) });
    const Query = v.object({ page: v.pipe(v.string(), v.transform(Number)) });
    const Id = v.object({ id: v.pipe(v.string(), v.transform(Number)) });
    post('/:id', { body: Create, query: Query, params: Id }, (ctx) => {
      expectTypeOf(ctx.body).toEqualTypeOf<{ title: string; tags: string[] }>();
      expectTypeOf(ctx.query).toEqualTypeOf<{ page: number }>();
      expectTypeOf(ctx.params.id).toEqualTypeOf<number>();
      // @ts-expect-error: `name` is not a field of Create
      void ctx.body.name;
      return undefined;
    });
    const Ark = type({ title: 'string', 'views?': 'number' });
    post('/', { body: Ark }, (ctx) => {
      expectTypeOf(ctx.body).toEqualTypeOf<{ title: string; views?: number }>();
      return undefined;
    });
  });

  it('checks the handler result against a response schema', () => {
    const Post = v.object({ id: v.string() });
    get('/', { response: Post }, () => ({ id: '1' }));
    // @ts-expect-error: a number is not the response schema's string
    get('/', { response: Post }, () => ({ id: 1 }));
  });
});
