import { describe, expect, it } from 'vitest';
import { jsonAnswer, toResponse, type SharedHeadersForm } from './answer.js';

async function seen(response: Response) {
  return { status: response.status, headers: [...response.headers.entries()], body: await response.text() };
}

describe('toResponse', () => {
  for (const form of ['Headers', 'object'] as const satisfies readonly SharedHeadersForm[]) {
    it(`gives a JSON answer its status, content type and body with the shared headers as ${form}`, async () => {
      expect(await seen(toResponse(jsonAnswer(201, { id: '1' }), form))).toEqual({ status: 201, headers: [['content-type', 'application/json']], body: '{"id":"1"}' });
    });
  }

  it('never lets a Response change the shared headers of later answers', async () => {
    const first = toResponse(jsonAnswer(200, { a: 1 }), 'object');
    first.headers.set('x-changed', 'yes');
    const second = toResponse(jsonAnswer(200, { a: 2 }), 'Headers');
    second.headers.set('x-changed', 'yes');
    expect((await seen(toResponse(jsonAnswer(200, { a: 3 }), 'object'))).headers).toEqual([['content-type', 'application/json']]);
    expect((await seen(toResponse(jsonAnswer(200, { a: 3 }), 'Headers'))).headers).toEqual([['content-type', 'application/json']]);
  });

  it('passes a Response through unchanged', () => {
    const response = new Response('x', { status: 418 });
    expect(toResponse(response, 'object')).toBe(response);
  });
});
