import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as v from 'valibot';
import WebSocket from 'ws';
import { createApp, defineController, defineModule, ws } from '../../lib/index.js';
import { createFetchClient, type ApiOf } from '../../lib/client/index.js';
import { serve } from '../../lib/node.js';
import { openSocket } from './socket-client.js';

const taken = new Set(['admin']);
const Say = v.object({ text: v.pipe(v.string(), v.minLength(1)) });
const Join = v.pipeAsync(
  v.object({ name: v.string() }),
  v.checkAsync(async (value) => {
    await new Promise((resolve) => setTimeout(resolve, value.name === 'slow' ? 30 : 0));
    return !taken.has(value.name);
  }, 'name taken'),
);

const sockets = defineController({
  name: 'Sockets',
  routes: () => ({
    text: ws('/text', { send: z.string() }, { open: (conn) => void conn.send('123') }),
    topic: ws('/topic', { send: z.string() }, {
      open: async (conn) => {
        await conn.subscribe('numbers');
        await conn.publish('numbers', '456');
      },
    }),
    plain: ws('/plain', {}, { open: (conn) => void conn.send('123') }),
    say: ws('/say', { message: Say, send: v.object({ echo: v.string() }), invalidMessage: 'reply' }, { message: (conn, said) => void conn.send({ echo: said.text }) }),
    join: ws('/join', { message: Join, invalidMessage: 'reply' }, { message: (conn, joined) => void conn.send({ joined: joined.name }) }),
  }),
});
type Api = ApiOf<[typeof sockets]>;

async function withServer(run: (baseUrl: string) => Promise<void>): Promise<void> {
  const server = await serve(await createApp(defineModule({ name: 'M', controllers: [sockets] })), { port: 0 });
  try {
    await run(server.url);
  } finally {
    await server.close({ forceAfterMs: 500 });
  }
}

describe('what conn.send is given is what the typed socket receives', () => {
  it("sends a string as JSON on a route with a send schema: '123' arrives as the string '123'", async () => {
    await withServer(async (baseUrl) => {
      const api = createFetchClient<Api>({ baseUrl, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
      const socket = api.socket('/text');
      const first = new Promise<unknown>((resolve) => socket.onMessage(resolve));
      socket.onMessage((message) => expectTypeOf(message).toEqualTypeOf<string>());
      const message = await first;
      expect(typeof message, 'the type says string; something else arrived').toBe('string');
      expect(message).toBe('123');
      socket.close();
      await socket.closed;
    });
  });

  it("publishes a string as JSON from a route with a send schema: '456' arrives as the string '456'", async () => {
    await withServer(async (baseUrl) => {
      const api = createFetchClient<Api>({ baseUrl, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
      const socket = api.socket('/topic');
      const message = await new Promise<unknown>((resolve) => socket.onMessage(resolve));
      expect(message).toBe('456');
      socket.close();
      await socket.closed;
    });
  });

  it('sends a string as it is on a route without a send schema', async () => {
    await withServer(async (baseUrl) => {
      const client = await openSocket(`${baseUrl.replace('http', 'ws')}/plain`);
      expect(await client.next()).toBe('123');
      client.ws.close();
      await client.closed;
    });
  });
});

describe('a valibot message schema', () => {
  it('gives the handler the parsed message, and replies to an invalid one with { code, path, message } issues', async () => {
    await withServer(async (baseUrl) => {
      const client = await openSocket(`${baseUrl.replace('http', 'ws')}/say`);
      client.ws.send(JSON.stringify({ text: 'hi' }));
      expect(JSON.parse(String(await client.next()))).toEqual({ echo: 'hi' });
      client.ws.send(JSON.stringify({ text: '' }));
      const error = JSON.parse(String(await client.next())) as { error: { status: number; issues: { code: string; path: unknown[]; message: string }[] } };
      expect(error.error.status).toBe(400);
      expect(error.error.issues.map(({ code, path }) => ({ code, path }))).toEqual([{ code: 'min_length', path: ['text'] }]);
      client.ws.close();
      await client.closed;
    });
  });

  it('awaits an async schema and hands the messages over in the order they came', async () => {
    await withServer(async (baseUrl) => {
      const client = await openSocket(`${baseUrl.replace('http', 'ws')}/join`);
      for (const name of ['slow', 'admin', 'fast']) client.ws.send(JSON.stringify({ name }));
      const answers = [await client.next(), await client.next(), await client.next()].map((text) => JSON.parse(String(text)) as unknown);
      expect(answers).toEqual([{ joined: 'slow' }, { error: expect.objectContaining({ status: 400, issues: [expect.objectContaining({ message: 'name taken' })] }) }, { joined: 'fast' }]);
      client.ws.close();
      await client.closed;
    });
  });
});
