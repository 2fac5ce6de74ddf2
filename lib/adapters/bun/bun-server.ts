import type { ListeningServer, ServerAdapter } from '../../index.js';
import { respondingRoutesOf, serverClose } from '../../internal/request-path.js';
import { fetchHandlerParts } from '../fetch/fetch-handler.js';
import { bunRoutes, type BunRoutes } from './bun-routes.js';
import { listenError } from '../listen-error.js';
import { bunWebSocketUpgrader, type BunWebSocketHandlers } from './bun-web-socket-upgrader.js';

/** The slice of Bun's API the adapter uses, so that it type-checks without `@types/bun`. */
interface BunRuntime {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request, server: unknown) => Response | Promise<Response>;
    routes?: BunRoutes | undefined;
    websocket: BunWebSocketHandlers;
  }): { readonly port: number; readonly hostname: string; stop(closeActiveConnections?: boolean): Promise<void> | void };
}

/**
 * The Bun server adapter for `app.listen`: `Bun.serve` with the app's route table as Bun's native
 * `routes` (each calling its route's responder; see `bunRoutes` for what stays with
 * the fetch handler), the app's fetch handler for the rest (the client address comes from
 * `server.requestIP`) and its WebSockets (`bunWebSocketUpgrader`). `tessera-http` supplies it by default when Bun resolves
 * the package (its `bun` export condition); give it explicitly for a bundle built for Bun.
 *
 * @example
 * const app = await createApp(AppModule, { server: bunServer });
 * const server = await app.listen(3000);
 */
export const bunServer: ServerAdapter = async (app, { port, host }): Promise<ListeningServer> => {
  const bun = (globalThis as { Bun?: BunRuntime }).Bun;
  if (bun === undefined) throw new Error('bunServer runs on Bun only: on Node, use nodeServer from tessera-http/node.');
  const hostname = host ?? '127.0.0.1';
  let server: ReturnType<BunRuntime['serve']>;
  try {
    const upgrader = bunWebSocketUpgrader();
    const parts = fetchHandlerParts(app, { webSocketUpgrader: upgrader });
    const routes = bunRoutes(respondingRoutesOf(app) ?? [], parts);
    server = bun.serve({ hostname, port: port ?? 3000, ...(routes === undefined ? {} : { routes }), fetch: parts.fetch, websocket: upgrader.websocket });
  } catch (error) {
    throw listenError(error, port ?? 3000, hostname);
  }
  const shown = server.hostname.includes(':') ? `[${server.hostname}]` : server.hostname;
  return {
    port: server.port,
    host: server.hostname,
    url: `http://${shown}:${server.port}`,
    // Bun's stop() without `true` stops accepting, lets requests in flight finish, then resolves.
    close: serverClose(app, () => server.stop()),
  };
};
