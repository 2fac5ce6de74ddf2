import type { FetchWebSockets } from '../fetch/fetch-web-sockets.js';
import { bindStandardWebSocket, type StandardServerSocket } from '../fetch/standard-web-socket.js';

/** The slice of Deno's API used here, so that it type-checks without Deno's types. */
interface DenoUpgrade {
  upgradeWebSocket(request: Request, options: { protocol?: string; idleTimeout?: number }): { socket: StandardServerSocket; response: Response };
}

/**
 * WebSockets on Deno with `Deno.upgradeWebSocket`: Deno pings and drops a silent peer after the
 * route's `idleTimeoutSeconds` itself. `denoServer` uses it; give it to `toFetchHandler` when
 * calling `Deno.serve` yourself.
 *
 * @example
 * Deno.serve(toFetchHandler(app, { webSockets: denoWebSockets }));
 */
export const denoWebSockets: FetchWebSockets = {
  upgrade(request, _platform, pending, headers) {
    const deno = (globalThis as { Deno?: DenoUpgrade }).Deno;
    if (deno === undefined) throw new Error('denoWebSockets runs on Deno only.');
    // The chosen protocol is set as a header, not passed as `protocol`: Deno checks that option
    // against the offer split on ", " only, and refuses offers written "a,b" (as the ws package does).
    const { socket, response } = deno.upgradeWebSocket(request, { idleTimeout: pending.idleTimeoutSeconds });
    for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
    bindStandardWebSocket(socket, pending, false);
    return response;
  },
};
