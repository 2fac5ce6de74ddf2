// WebSocket echo on Tessera: a `ws` route whose handler sends back the text it receives, served by
// `serve` from tessera-http/node on Node, by `bunServer` (app.listen) on Bun.
// BENCH_WS_FEATURE adds one feature to the route, for what it costs per connection
// (bench/websocket-memory.mjs): `guard` (a guard whose credential expires in an hour),
// `subscription` (each socket subscribes to one shared topic), `own-topic` (each to a topic of
// its own, as a per-user notification channel), `schema` (a zod `message` schema).
import { CREDENTIAL_EXPIRES_AT, createApp, defineController, defineModule, silentLogger, type Guard, type RequestContext, type WebSocketConnection, type WebSocketHandlers } from '../../lib/index.js';

const feature = (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env.BENCH_WS_FEATURE ?? '';

/** Lets every upgrade in, with a credential that expires an hour from now. */
class ExpiringCredentialGuard implements Guard {
  canActivate(ctx: RequestContext): boolean {
    ctx.set(CREDENTIAL_EXPIRES_AT, Date.now() + 3_600_000);
    return true;
  }
}

const echoHandlers: WebSocketHandlers<WebSocketConnection, unknown> = { message: (conn, data) => void conn.send(data) };
const handlers: WebSocketHandlers<WebSocketConnection, unknown> =
  feature === 'subscription' ? { ...echoHandlers, open: (conn) => conn.subscribe('news') }
  : feature === 'own-topic' ? { ...echoHandlers, open: (conn) => conn.subscribe(`user:${conn.id}`) }
  : echoHandlers;
// zod is loaded only by the variant that validates, so the others carry none of it.
const message = feature === 'schema' ? await import('zod').then(({ z }) => z.object({ text: z.string() })) : undefined;

const echo = defineController({
  name: 'EchoController',
  routes: ({ ws }) => ({
    echo: ws('/echo', { binary: true, ...(feature === 'guard' ? { guards: [ExpiringCredentialGuard] } : {}), ...(message === undefined ? {} : { message }) }, handlers),
  }),
});
const app = await createApp(defineModule({ name: 'Echo', controllers: [echo], providers: feature === 'guard' ? [ExpiringCredentialGuard] : [] }), { logger: silentLogger });
const port = Number((globalThis as { process?: { env: Record<string, string> } }).process?.env.PORT);
if ('Bun' in globalThis) {
  const { bunServer } = await import('../../lib/fetch.js');
  await bunServer(app, { port, host: '127.0.0.1' });
} else {
  const { serve } = await import('../../lib/node.js');
  await serve(app, { port, host: '127.0.0.1' });
}
console.log('ready');
