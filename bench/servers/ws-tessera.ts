// WebSocket echo on Tessera: a `ws` route whose handler sends back the text it receives, served by
// `serve` from tessera-http/node on Node, by `bunServer` (app.listen) on Bun.
import { createApp, defineController, defineModule, silentLogger } from '../../lib/index.js';

const echo = defineController({
  name: 'EchoController',
  routes: ({ ws }) => ({ echo: ws('/echo', { binary: true }, { message: (conn, data) => void conn.send(data) }) }),
});
const app = await createApp(defineModule({ name: 'Echo', controllers: [echo] }), { logger: silentLogger });
const port = Number((globalThis as { process?: { env: Record<string, string> } }).process?.env.PORT);
if ('Bun' in globalThis) {
  const { bunServer } = await import('../../lib/fetch.js');
  await bunServer(app, { port, host: '127.0.0.1' });
} else {
  const { serve } = await import('../../lib/node.js');
  await serve(app, { port, host: '127.0.0.1' });
}
console.log('ready');
