import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { post } from '../routing/route.js';
import { createApp } from './create-app.js';

const taken = new Set(['admin']);
// An async refinement: zod cannot parse this schema synchronously.
const SignUp = z.object({ name: z.string().min(1) }).refine(async (value) => !taken.has(value.name), { message: 'name taken' });
const Plain = z.object({ name: z.string().min(1) });

async function app() {
  const controller = defineController({
    name: 'C',
    routes: () => ({
      signUp: post('/sign-up', { body: SignUp }, (ctx) => ctx.body),
      plain: post('/plain', { body: Plain }, (ctx) => ctx.body),
    }),
  });
  return createApp(defineModule({ name: 'M', controllers: [controller] }));
}

const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

describe('body validation', () => {
  it('validates a plain schema synchronously: valid bodies pass, invalid ones are 400', async () => {
    const a = await app();
    expect(await (await a.request('/plain', json({ name: 'x' }))).json()).toEqual({ name: 'x' });
    expect((await a.request('/plain', json({ name: '' }))).status).toBe(400);
  });

  it('falls back to async parsing for a schema with an async refinement, every time', async () => {
    const a = await app();
    expect(await (await a.request('/sign-up', json({ name: 'ada' }))).json()).toEqual({ name: 'ada' });
    const refused = await a.request('/sign-up', json({ name: 'admin' }));
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('name taken');
    expect((await a.request('/sign-up', json({ name: 'grace' }))).status, 'the second request takes the async path directly').toBe(200);
  });
});
