// Tessera on Bun or Deno through its fetch adapter (`bunServer` / `denoServer` from
// `tessera-http/fetch`, which serve `toFetchHandler(app)` with the runtime's own server).
// Bundled by bench/run.mjs into bench/.build/tessera-fetch.mjs (zod stays external).
import { createApp } from '../../lib/index.js';
import { bunServer, denoServer } from '../../lib/fetch.js';
import { host, port, ready, scenario } from './shared.mjs';
import { benchModule } from './tessera-module.js';

const server = 'Bun' in globalThis ? bunServer : denoServer;
const app = await createApp(await benchModule(scenario), { server });
await app.listen(port, host);
ready();
