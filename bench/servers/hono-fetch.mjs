// Hono 4 on Bun (`Bun.serve`) or Deno (`Deno.serve`), the app of hono-app.mjs.
import { honoApp } from './hono-app.mjs';
import { serveFetch } from './fetch-serve.mjs';
import { host, port, ready, scenario } from './shared.mjs';

const app = await honoApp(scenario);
serveFetch(app.fetch, { port, host, ready });
