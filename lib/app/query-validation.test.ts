import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { z } from 'zod';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import type { Schema } from '../routing/route.js';
import { createApp } from './create-app.js';

// The query goes through the same validation stage as the body and the path parameters: an
// async zod refinement, a transform or an async Standard Schema behave as they do in a body.
const taken = new Set(['admin']);
const AsyncZod = z.object({ name: z.string() }).refine(async (query) => !taken.has(query.name), { message: 'name taken' });
const Transformed = z.object({ page: z.string().transform(Number) });
const AsyncValibot = v.pipeAsync(v.object({ name: v.string() }), v.checkAsync(async (query) => !taken.has(query.name), 'name taken'));
const ListedAsync = z.object({ tag: z.array(z.string()) }).refine(async (query) => query.tag.length > 0);

async function appWith(query: Schema) {
  const controller = defineController({ name: 'Q', routes: () => ({ read: get('/q', { query }, (ctx) => ctx.query) }) });
  return createApp(defineModule({ name: 'M', controllers: [controller] }));
}

describe('query validation: the one validation stage', () => {
  it('answers 200 with the parsed query for an async zod refinement that passes', async () => {
    const app = await appWith(AsyncZod);
    const answer = await app.request('/q?name=ada');
    expect(answer.status, 'an async zod refinement on the query did not pass through the validation stage').toBe(200);
    expect(await answer.json()).toEqual({ name: 'ada' });
  });

  it('answers the 400 problem, not 500, for an async zod refinement that fails', async () => {
    const app = await appWith(AsyncZod);
    const answer = await app.request('/q?name=admin');
    expect(answer.status, 'a failed async refinement on the query must be the 400 problem').toBe(400);
    expect(JSON.stringify(await answer.json()), 'the 400 carries the refinement issue').toContain('name taken');
  });

  it('hands the handler a zod transform output from the query', async () => {
    const app = await appWith(Transformed);
    expect(await (await app.request('/q?page=3')).json(), 'the transform did not run on the query').toEqual({ page: 3 });
  });

  it('validates an async Standard Schema query (valibot) as it does a body: 200 or 400', async () => {
    const app = await appWith(AsyncValibot);
    expect((await app.request('/q?name=ada')).status, 'an async valibot query that passes').toBe(200);
    expect((await app.request('/q?name=admin')).status, 'an async valibot query that fails').toBe(400);
  });

  it('coerces a single value to a list before an async zod parse', async () => {
    const app = await appWith(ListedAsync);
    expect(await (await app.request('/q?tag=a')).json(), 'list coercion did not run before the async parse').toEqual({ tag: ['a'] });
  });
});
