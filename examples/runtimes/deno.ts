// Deno, both ways: `app.listen(port)` (the `deno` export condition of `tessera-http` gives createApp
// the Deno adapter), and `Deno.serve(toFetchHandler(app))` by hand. Deno passes `{ remoteAddr }` as
// the second argument, from which the fetch adapter reads the client address. Needs --allow-net, --allow-env and --allow-read (node_modules).
import { denoWebSocketUpgrader, toFetchHandler } from '../../lib/fetch.js';
import { createRuntimeApps, readPort, readyLine } from './runtime-apps.js';

// The slice of Deno's API used here, so that this file type-checks without Deno's types.
declare const Deno: {
  readonly env: { toObject(): Record<string, string> };
  addSignalListener(signal: 'SIGTERM', listener: () => void): void;
  exit(code: number): never;
  serve(
    options: { hostname: string; port: number; onListen?: () => void },
    handler: (request: Request, info: unknown) => Response | Promise<Response>,
  ): { readonly addr: { readonly port: number }; shutdown(): Promise<void> };
};

const env = Deno.env.toObject();
const { site, tenants } = await createRuntimeApps(env);
const hostname = env.HOST ?? '127.0.0.1';
// onListen is silenced: Deno's default prints its own line for every server.
const siteServer = await site.listen(readPort(env, 'SITE_PORT'), hostname);
const tenantsServer = Deno.serve({ hostname, port: readPort(env, 'TENANTS_PORT'), onListen: () => undefined }, toFetchHandler(tenants, { webSocketUpgrader: denoWebSocketUpgrader }));
console.log(readyLine({ site: siteServer.url, tenants: `http://${hostname}:${tenantsServer.addr.port}` }));

Deno.addSignalListener('SIGTERM', () => {
  // WebSockets get 1001 and a grace while requests in flight finish; then shutdown hooks run.
  void Promise.all([siteServer.close(), tenants.webSockets.close(), tenantsServer.shutdown()])
    .then(() => Promise.all([site.close(), tenants.close()]))
    .then(() => Deno.exit(0));
});
