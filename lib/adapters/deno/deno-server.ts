import type { ListeningServer, ServerAdapter } from '../../index.js';
import { serverClose } from '../../internal/request-path.js';
import { toFetchHandler } from '../fetch/fetch-handler.js';
import { listenError } from '../listen-error.js';
import { denoWebSocketUpgrader } from './deno-web-socket-upgrader.js';

/** The slice of Deno's API the adapter uses, so that it type-checks without Deno's types. */
interface DenoRuntime {
  serve(
    options: { hostname: string; port: number; onListen?: () => void },
    handler: (request: Request, info: unknown) => Response | Promise<Response>,
  ): { readonly addr: { readonly hostname: string; readonly port: number }; shutdown(): Promise<void> };
}

/**
 * The Deno server adapter for `app.listen`: `Deno.serve` with the app's fetch handler (the client
 * address comes from the connection info) and its WebSockets (`denoWebSocketUpgrader`). `tessera-http` supplies it by default when Deno resolves
 * the package (its `deno` export condition); give it explicitly for a bundle built for Deno.
 *
 * @example
 * const app = await createApp(AppModule, { server: denoServer });
 * const server = await app.listen(3000);
 */
export const denoServer: ServerAdapter = async (app, { port, host }): Promise<ListeningServer> => {
  const deno = (globalThis as { Deno?: DenoRuntime }).Deno;
  if (deno === undefined) throw new Error('denoServer runs on Deno only: on Node, use nodeServer from tessera-http/node.');
  // onListen silenced: Deno's default prints a line of its own for every server.
  const hostname = host ?? '127.0.0.1';
  let server: ReturnType<DenoRuntime['serve']>;
  try {
    server = deno.serve({ hostname, port: port ?? 3000, onListen: () => undefined }, toFetchHandler(app, { webSocketUpgrader: denoWebSocketUpgrader }));
  } catch (error) {
    throw listenError(error, port ?? 3000, hostname);
  }
  const { hostname: boundHost, port: bound } = server.addr;
  const shown = boundHost.includes(':') ? `[${boundHost}]` : boundHost;
  return {
    port: bound,
    host: boundHost,
    url: `http://${shown}:${bound}`,
    // shutdown() stops accepting and resolves once requests in flight have finished.
    close: serverClose(app, () => server.shutdown()),
  };
};
