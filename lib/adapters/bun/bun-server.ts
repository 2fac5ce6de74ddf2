import type { ListeningServer, ServerAdapter } from '../../internal.js';
import { toFetchHandler } from '../fetch/fetch-handler.js';
import { listenError } from '../listen-error.js';
import { bunWebSockets, type BunWebSockets } from './bun-web-sockets.js';

/** The slice of Bun's API the adapter uses, so that it type-checks without `@types/bun`. */
interface BunRuntime {
  serve(options: {
    hostname: string;
    port: number;
    fetch: (request: Request, server: unknown) => Response | Promise<Response>;
    websocket: BunWebSockets['websocket'];
  }): { readonly port: number; readonly hostname: string; stop(closeActiveConnections?: boolean): Promise<void> | void };
}

/**
 * The Bun server adapter for `app.listen`: `Bun.serve` with the app's fetch handler (the client
 * address comes from `server.requestIP`) and its WebSockets (`bunWebSockets`). `tessera-http` supplies it by default when Bun resolves
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
    const sockets = bunWebSockets();
    server = bun.serve({ hostname, port: port ?? 3000, fetch: toFetchHandler(app, { webSockets: sockets }), websocket: sockets.websocket });
  } catch (error) {
    throw listenError(error, port ?? 3000, hostname);
  }
  const shown = server.hostname.includes(':') ? `[${server.hostname}]` : server.hostname;
  return {
    port: server.port,
    host: server.hostname,
    url: `http://${shown}:${server.port}`,
    // Bun's stop() without `true` lets requests in flight finish, then resolves; WebSockets get
    // their 1001 (and are dropped after the grace) meanwhile.
    close: async () => {
      await app.drain();
      await Promise.all([app.webSockets.close(), server.stop()]);
    },
  };
};
