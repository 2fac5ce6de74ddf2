// Node, both ways: `app.listen(port)` (the `node` export condition of `tessera-http` gives createApp
// the Node adapter), and `serve(app, options)` from `tessera-http/node`. Built against dist/ by the runtime suite, then:
//   node test/runtimes/.build/node.js        (HOST, SITE_PORT, TENANTS_PORT, AUTH_SECRET from the environment)
import { serve } from '../../lib/node.js';
import { createRuntimeApps, readPort, readyLine } from './runtime-apps.js';

const { site, tenants } = await createRuntimeApps(process.env);
const host = process.env.HOST ?? '127.0.0.1';
const servers = [await site.listen(readPort(process.env, 'SITE_PORT'), host), await serve(tenants, { port: readPort(process.env, 'TENANTS_PORT'), host })] as const;
console.log(readyLine({ site: servers[0].url, tenants: servers[1].url }));

process.once('SIGTERM', () => {
  // Requests in flight finish, then shutdown hooks run; only then does the process end.
  void Promise.all(servers.map((server) => server.close()))
    .then(() => Promise.all([site.close(), tenants.close()]))
    .then(() => process.exit(0));
});
