// Tessera on Bun or Deno through its fetch adapter (`bunServer` / `denoServer` from
// `tessera-http/fetch`, which serve `toFetchHandler(app)` with the runtime's own server).
// Bundled by bench/run.mjs into bench/.build/tessera-fetch.mjs (zod stays external).
import { createApp } from '../../lib/index.js';
import { bunServer, denoServer, toFetchHandler, type FetchHandler } from '../../lib/fetch.js';
import { host, port, ready, scenario } from './shared.mjs';
import { benchModule } from './tessera-module.js';

const server = 'Bun' in globalThis ? bunServer : denoServer;
const app = await createApp(await benchModule(scenario), { server });
const bun = (globalThis as { Bun?: { serve(options: { hostname: string; port: number; fetch: FetchHandler }): unknown; env: Record<string, string | undefined> } }).Bun;
// bun-tessera-js: the fetch handler alone, without the native routes bunServer hands to Bun.
if (bun !== undefined && bun.env.TESSERA_BENCH_ROUTING === 'js') bun.serve({ hostname: host, port, fetch: toFetchHandler(app) });
else await app.listen(port, host);
ready();
