// Run by Bun and Deno (busy-port.test.ts): `app.listen` on a port this process already serves
// must reject with Tessera's SERVER_PORT_IN_USE, as it does on Node. Prints one JSON line.
import { createApp, defineModule } from '../../dist/index.js';
import { bunServer, denoServer } from '../../dist/fetch.js';

const server = globalThis.Bun === undefined ? denoServer : bunServer;
const app = await createApp(defineModule({ name: 'ProbeModule' }), { server });
const first = await app.listen(0, '127.0.0.1');
try {
  const second = await app.listen(first.port, '127.0.0.1');
  await second.close();
  console.log(JSON.stringify({ listenedTwice: true }));
} catch (error) {
  console.log(JSON.stringify({ name: error.name, code: error.code, message: error.message, causeCode: error.cause?.code, port: first.port }));
}
await first.close();
