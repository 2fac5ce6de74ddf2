import { z } from 'zod';
import { createApp, createStateKey, defineController, defineModule, UnauthorizedException, type App, type AppOptions, type Guard, type RequestContext } from '../../lib/index.js';

/** What the chat's clients send: validated before any handler sees it. */
export const ChatMessage = z.object({ text: z.string().max(200) });
/** What the chat sends back. */
export const ChatEvent = z.object({ room: z.string(), from: z.string(), text: z.string() });

export const USER = createStateKey<string>('test:user');

/** Lets in a request with `x-user` (a stand-in for a bearer guard), recording who it is. */
export class UserGuard implements Guard {
  canActivate(ctx: RequestContext): boolean {
    const user = ctx.header('x-user');
    if (user === null) throw new UnauthorizedException('Who are you?');
    ctx.set(USER, user);
    return true;
  }
}

/** What the routes let a test observe: closes seen by the server, and a way to push. */
export interface ChatProbes {
  readonly closes: { code: number; reason: string; id: string }[];
  readonly opened: string[];
}

/**
 * A chat over WebSocket routes: `/rooms/:room` (guarded, validated, topics), `/echo` (text as it
 * comes, binary allowed, small limits), `/flood` (sends until the client stops reading), and
 * `/broken` (a handler that throws).
 *
 * @example
 * const app = await createChatApp(probes);
 */
export async function createChatApp(probes: ChatProbes, options: AppOptions = {}, idleTimeoutSeconds = 60): Promise<App> {
  const chat = defineController({
    name: 'ChatController',
    routes: ({ ws }) => ({
      room: ws(
        '/rooms/:room',
        { guards: [UserGuard], query: z.object({ greet: z.enum(['yes', 'no']).default('yes') }), message: ChatMessage, send: ChatEvent },
        {
          open: async (conn) => {
            probes.opened.push(conn.id);
            await conn.subscribe(`room:${conn.params.room}`);
            if (conn.query.greet === 'yes') conn.send({ room: conn.params.room, from: 'server', text: `welcome ${conn.get(USER) ?? '?'}` });
          },
          message: (conn, message) => conn.publish(`room:${conn.params.room}`, { room: conn.params.room, from: conn.get(USER) ?? '?', text: message.text }),
          close: (conn, code, reason) => void probes.closes.push({ code, reason, id: conn.id }),
        },
      ),
      echo: ws(
        '/echo',
        { binary: true, maxMessageBytes: 1024, idleTimeoutSeconds },
        {
          message: (conn, data) => void conn.send(data),
          close: (conn, code, reason) => void probes.closes.push({ code, reason, id: conn.id }),
        },
      ),
      replying: ws('/replying', { message: ChatMessage, invalidMessage: 'reply' }, { message: (conn, message) => void conn.send({ ok: message.text }) }),
      flood: ws(
        '/flood',
        { maxBufferedBytes: 256 * 1024 },
        {
          open: (conn) => {
            const chunk = 'x'.repeat(16 * 1024);
            // Ignores `send` returning false on purpose: the limit must hold anyway.
            const timer = setInterval(() => {
              for (let i = 0; i < 16; i++) conn.send(chunk);
            }, 5);
            conn.signal.addEventListener('abort', () => clearInterval(timer));
          },
          close: (conn, code, reason) => void probes.closes.push({ code, reason, id: conn.id }),
        },
      ),
      polite: ws(
        '/polite',
        { maxBufferedBytes: 256 * 1024 },
        {
          // Sends 4 MiB while respecting backpressure: waits whenever `send` says so.
          open: async (conn) => {
            const chunk = 'y'.repeat(16 * 1024);
            for (let i = 0; i < 256 && !conn.signal.aborted; i++) if (!conn.send(chunk)) await conn.drained();
            conn.send('done');
          },
        },
      ),
      broken: ws('/broken', {
        message: () => {
          throw new Error('handler bug');
        },
      }),
    }),
  });
  return createApp(defineModule({ name: 'Chat', controllers: [chat], providers: [UserGuard] }), options);
}
