import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '../app/create-app.js';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import { arrayQueryKeys, withListKeys, withSingleValuesListed } from './query-arrays.js';

describe('arrayQueryKeys', () => {
  it('finds array properties through optional, default and pipes', () => {
    const schema = z.object({
      tag: z.array(z.string()),
      ids: z.array(z.string()).optional(),
      sort: z.array(z.string()).default([]),
      n: z.array(z.string()).transform((v) => v.length),
      page: z.string(),
    });
    expect([...arrayQueryKeys(schema)].sort()).toEqual(['ids', 'n', 'sort', 'tag']);
  });

  it('is empty for a schema that is not an object', () => {
    expect(arrayQueryKeys(z.record(z.string(), z.string())).size).toBe(0);
  });

  it('wraps only single values, leaving the rest as they were', () => {
    expect(withListKeys({ tag: 'a', page: '2' }, new Set(['tag']))).toEqual({ tag: ['a'], page: '2' });
    const many = { tag: ['a', 'b'] };
    expect(withListKeys(many, new Set(['tag']))).toBe(many);
  });
});

describe('a single query value against an array schema', () => {
  it('is accepted as a one-element array; repeated keys stay a list', async () => {
    const controller = defineController({
      name: 'C',
      routes: () => ({ list: get('/items', { query: z.object({ tag: z.array(z.string()).optional(), page: z.coerce.number().default(1) }) }, (ctx) => ctx.query) }),
    });
    const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));
    expect(await (await app.request('/items?tag=a')).json()).toEqual({ tag: ['a'], page: 1 });
    expect(await (await app.request('/items?tag=a&tag=b&page=2')).json()).toEqual({ tag: ['a', 'b'], page: 2 });
    expect(await (await app.request('/items')).json()).toEqual({ page: 1 });
  });
});

describe('withSingleValuesListed', () => {
  it('lists only the single values a failed parse points at, by the first key of the path', () => {
    expect(withSingleValuesListed({ tag: 'a', page: '2' }, [{ path: ['tag'] }])).toEqual({ tag: ['a'], page: '2' });
    expect(withSingleValuesListed({ tag: 'a', page: '2' }, [{ path: ['tag', 0] }, { path: [] }])).toEqual({ tag: ['a'], page: '2' });
  });

  it('gives the query itself when no issue points at a single value', () => {
    const query = { tag: ['a', 'b'], page: '2' };
    expect(withSingleValuesListed(query, [{ path: ['tag', 1] }, { path: ['missing'] }])).toBe(query);
  });
});
