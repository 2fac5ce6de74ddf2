import { describe, expect, it } from 'vitest';
import { createApp } from './create-app.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import { defineModule } from '../modules/module.js';

const controller = defineController({
  name: 'C',
  routes: () => ({
    now: get('/now', () => ({ at: 'now' })),
    later: get('/later', async () => ({ at: 'later' })),
  }),
});
const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));

describe('app.fetch: a Response itself when the answer is ready', () => {
  it('returns the Response, not a promise, for a synchronous route', async () => {
    const result = app.fetch(new Request('http://localhost/now'));
    expect(result, 'a synchronous route went through a promise').toBeInstanceOf(Response);
    expect(await (result as Response).json()).toEqual({ at: 'now' });
  });

  it('returns a promise of the Response for an asynchronous route', async () => {
    const result = app.fetch(new Request('http://localhost/later'));
    expect(result).toBeInstanceOf(Promise);
    expect(await (await result).json()).toEqual({ at: 'later' });
  });

  it('answers app.request with a promise either way', async () => {
    const result = app.request('/now');
    expect(result).toBeInstanceOf(Promise);
    expect((await result).status).toBe(200);
  });
});
