// Serves the trace app on Node, Bun or Deno with that runtime's own server (nodeServer,
// bunServer, denoServer; dist/ is imported by path here, so no export condition picks one) and
// prints `trace-probe ready <url>`.
import { bunServer, denoServer } from '../../../dist/fetch.js';
import { createTraceApp } from './trace-app.mjs';

const server = globalThis.Bun !== undefined ? bunServer : globalThis.Deno !== undefined ? denoServer : (await import('../../../dist/node.js')).nodeServer;
const app = await createTraceApp({ server });
const listening = await app.listen(0, '127.0.0.1');
console.log(`trace-probe ready http://127.0.0.1:${listening.port}`);
