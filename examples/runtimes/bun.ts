// Bun, both ways: `app.listen(port)` (the `bun` export condition of `tessera-http` gives createApp
// the Bun adapter), and `Bun.serve({ fetch: toFetchHandler(app) })` by hand. Bun passes its server
// as the second argument, from which the fetch adapter reads the client address (`server.requestIP(request)`).
import { bunWebSocketUpgrader, toFetchHandler } from '../../lib/fetch.js';
import { createRuntimeApps, readPort, readyLine } from './runtime-apps.js';

// The slice of Bun's API used here, so that this file type-checks without `@types/bun`.
declare const process: { once(signal: 'SIGTERM', listener: () => void): void; exit(code: number): never };
declare const Bun: {
  readonly env: Record<string, string | undefined>;
  serve(options: { hostname: string; port: number; fetch: (request: Request, server: unknown) => Response | Promise<Response>; websocket: ReturnType<typeof bunWebSocketUpgrader>['websocket'] }): { readonly port: number; stop(): Promise<void> };
};

const { site, tenants } = await createRuntimeApps(Bun.env);
const hostname = Bun.env.HOST ?? '127.0.0.1';
const siteServer = await site.listen(readPort(Bun.env, 'SITE_PORT'), hostname);
// WebSockets by hand: the upgrader in the fetch handler, its socket events in `websocket`, on the same server.
const upgrader = bunWebSocketUpgrader();
const tenantsServer = Bun.serve({ hostname, port: readPort(Bun.env, 'TENANTS_PORT'), fetch: toFetchHandler(tenants, { webSocketUpgrader: upgrader }), websocket: upgrader.websocket });
console.log(readyLine({ site: siteServer.url, tenants: `http://${hostname}:${tenantsServer.port}` }));

process.once('SIGTERM', () => {
  // WebSockets get 1001 and a grace while requests in flight finish; then shutdown hooks run.
  void Promise.all([siteServer.close(), tenants.webSockets.close(), tenantsServer.stop()])
    .then(() => Promise.all([site.close(), tenants.close()]))
    .then(() => process.exit(0));
});
