// Cloudflare Workers / workerd: a module worker, `export default { fetch }`. Workers pass the
// bindings as the second argument, which carry no client address: API keys restricted to
// networks (`allowedCidrs`) are refused here, as they must be when the address is unknown.
import type { App } from '../../lib/index.js';
import { toFetchHandler, workersWebSocketUpgrader } from '../../lib/fetch.js';
import { createSiteApp, createTenantsApp } from './runtime-apps.js';

/** The bindings: `APP` picks the app this worker serves; the rest configure it (`AUTH_SECRET`, ...). */
interface Env {
  readonly APP?: string;
  readonly [binding: string]: string | undefined;
}

// Built on the first request, not at module scope: Workers forbid generating random values
// (the demo accounts' password salts) during startup. Kept for the isolate's lifetime.
let app: Promise<App> | undefined;
let handler: ((request: Request, env: Env) => Response | Promise<Response>) | undefined;

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    app ??= (env.APP === 'tenants' ? createTenantsApp(env) : createSiteApp()).catch((error: unknown) => {
      app = undefined; // let the next request retry instead of keeping the failure
      throw error;
    });
    // toFetchHandler with workerd's WebSocketPair: app.fetch alone answers upgrades 501.
    handler ??= toFetchHandler(await app, { webSocketUpgrader: workersWebSocketUpgrader });
    return handler(request, env);
  },
};
