import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import WebSocket from 'ws';
import { createApp, defineController, defineModule, ws } from '../../lib/index.js';
import { createFetchClient, type ApiOf } from '../../lib/client/index.js';
import { serve } from '../../lib/node.js';

// What each handler received, in order, by route.
const received: Record<'text' | 'plain' | 'own', unknown[]> = { text: [], plain: [], own: [] };

const sockets = defineController({
  name: 'Sends',
  routes: () => ({
    text: ws('/text', { message: z.string() }, { message: (conn, text) => void (received.text.push(text), conn.send('ok')) }),
    plain: ws('/plain', {}, { message: (conn, text) => void (received.plain.push(text), conn.send('ok')) }),
    own: ws('/own', { message: z.string(), protocols: ['chat.v2'] }, { message: (conn, text) => void (received.own.push(text), conn.send('ok')) }),
  }),
});
type Api = ApiOf<[typeof sockets]>;

async function withApi(run: (api: ReturnType<typeof createFetchClient<Api>>) => Promise<void>): Promise<void> {
  for (const list of Object.values(received)) list.length = 0;
  const server = await serve(await createApp(defineModule({ name: 'M', controllers: [sockets] })), { port: 0 });
  try {
    await run(createFetchClient<Api>({ baseUrl: server.url, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket }));
  } finally {
    await server.close({ forceAfterMs: 500 });
  }
}

interface StringSocket {
  readonly opened: Promise<void>;
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
  send(message: string): void;
  onMessage(listener: (message: unknown) => void): () => void;
}

/** Sends each message and waits for the handler's acknowledgement of each one; rejects if the server closes first. */
async function sendAll(socket: StringSocket, messages: string[]): Promise<void> {
  await socket.opened;
  const closedFirst = socket.closed.then(({ code, reason }) => Promise.reject(new Error(`the server closed the socket with ${code} ${reason}`)));
  for (const message of messages) {
    const acked = new Promise<void>((resolve) => {
      const stop = socket.onMessage(() => (stop(), resolve()));
    });
    socket.send(message);
    await Promise.race([acked, closedFirst]);
  }
}

describe('the typed socket sends a string as its route reads it', () => {
  it("sends strings to a route with message: z.string() so that 'hello' and '123' reach the handler as those strings", async () => {
    await withApi(async (api) => {
      const socket = api.socket('/text');
      await sendAll(socket, ['hello', '123']);
      expect(received.text, 'the handler did not receive the strings the client sent').toEqual(['hello', '123']);
      socket.close();
      await socket.closed;
    });
  });

  it("sends a string as it is to a route without a message schema: 'hello' reaches the handler as 'hello'", async () => {
    await withApi(async (api) => {
      const socket = api.socket('/plain');
      await sendAll(socket, ['hello', '"quoted"']);
      expect(received.plain, 'a schema-less route must receive the text as it was sent').toEqual(['hello', '"quoted"']);
      socket.close();
      await socket.closed;
    });
  });

  it("chooses 'tessera.json' only for a route with a message schema", async () => {
    await withApi(async (api) => {
      const text = api.socket('/text');
      const plain = api.socket('/plain');
      await Promise.all([text.opened, plain.opened]);
      expect(text.socket.protocol, 'a route with a message schema must choose tessera.json').toBe('tessera.json');
      expect(plain.socket.protocol, 'a route without a message schema must choose tessera').toBe('tessera');
      text.close();
      plain.close();
      await Promise.all([text.closed, plain.closed]);
    });
  });

  it("chooses the route's own protocol before 'tessera.json' when the client offers it", async () => {
    await withApi(async (api) => {
      const socket = api.socket('/own', { protocols: ['chat.v2'] });
      await socket.opened;
      expect(socket.socket.protocol, "the route's declared protocol must come first").toBe('chat.v2');
      socket.close();
      await socket.closed;
    });
  });
});
