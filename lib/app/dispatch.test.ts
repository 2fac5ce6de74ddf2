import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get, post } from '../routing/route.js';
import { Router } from '../routing/router.js';
import { createApp } from './create-app.js';

// app.handle routes a request once: a found route goes to its responder, a refusal (404, 405)
// walks the general way (middleware, notFound, problem) with the router's answer already found.
async function app(withMiddleware: boolean) {
  const controller = defineController({ name: 'C', routes: () => ({ show: get('/posts/:id', (ctx) => ({ id: ctx.params.id })), make: post('/posts', () => ({ ok: true })) }) });
  return createApp(defineModule({ name: 'M', controllers: [controller] }), withMiddleware ? { middleware: [(_ctx, next) => next()] } : {});
}

afterEach(() => vi.restoreAllMocks());

describe('app.handle routes each request once', () => {
  it('matches a request no route serves once (404), and still answers the 404 problem', async () => {
    const a = await app(true);
    const match = vi.spyOn(Router.prototype, 'match');
    const answer = await a.request('/nothing');
    expect(answer.status, 'the refusal changed').toBe(404);
    expect(match, 'a 404 was routed more than once').toHaveBeenCalledTimes(1);
  });

  it('matches a request for another method once (405 with Allow)', async () => {
    const a = await app(false);
    const match = vi.spyOn(Router.prototype, 'match');
    const answer = await a.request('/posts', { method: 'DELETE' });
    expect([answer.status, answer.headers.get('allow')], 'the 405 changed').toEqual([405, 'POST']);
    expect(match, 'a 405 was routed more than once').toHaveBeenCalledTimes(1);
  });

  it('matches a found route once, HEAD as GET, and drops the body of HEAD', async () => {
    const a = await app(true);
    const match = vi.spyOn(Router.prototype, 'match');
    const answer = await a.request('/posts/7', { method: 'HEAD' });
    expect(answer.status, 'HEAD was not answered by the GET route').toBe(200);
    expect(await answer.text(), 'HEAD kept a body').toBe('');
    expect(match, 'a found route was routed more than once').toHaveBeenCalledTimes(1);
    expect(match.mock.calls[0]?.[0], 'HEAD was not routed as GET').toBe('GET');
  });
});
