import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { createClient } from '../../lib/client/index.js';
import { defineController, get } from '../../lib/index.js';

const Post = z.object({ id: z.string(), title: z.string() });
const liveController = defineController({
  name: 'LiveController',
  prefix: '/posts',
  routes: ({ ws }) => ({
    list: get('/', () => [{ id: '1', title: 'Hello' }]),
    live: ws('/live', { send: Post }, {}),
  }),
});

describe('createClient and WebSocket routes', () => {
  it('types a WebSocket route never, and refuses it at run time without sending anything', async () => {
    const sent: string[] = [];
    const client = createClient(liveController, { baseUrl: 'http://localhost', fetch: (request) => (sent.push(`${request.method} ${new URL(request.url).pathname}`), Response.json([])) });
    expectTypeOf(client.live).toBeNever();
    const call = (client as unknown as Record<string, () => Promise<unknown>>).live;
    await expect(call?.()).rejects.toMatchObject({ code: 'CLIENT_ROUTES', message: expect.stringContaining('WebSocket route (/posts/live)') });
    expect(sent, 'no HTTP request went out for the WebSocket route').toEqual([]);
  });

  it('keeps the HTTP routes of the same controller', async () => {
    const client = createClient(liveController, { baseUrl: 'http://localhost', fetch: () => Response.json([{ id: '1', title: 'Hello' }]) });
    const listed = await client.list();
    expect(listed).toMatchObject({ ok: true, status: 200, data: [{ id: '1', title: 'Hello' }] });
  });
});
