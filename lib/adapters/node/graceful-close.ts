import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { NodeListeners } from './node-listeners.js';

/**
 * Options of {@link NodeServer.close}.
 *
 * @example
 * await server.close({ idleGraceMs: 500, streamGraceMs: 1_000, forceAfterMs: 10_000 });
 */
export interface CloseOptions {
  /** Destroys whatever is still open after this long, ms. Default: wait for everything. */
  readonly forceAfterMs?: number;
  /**
   * A keep-alive connection is closed once it has been idle this long, ms: no response in
   * progress and no byte received. A request written on it meanwhile is answered (with
   * `Connection: close`) instead of meeting a reset. Default 500.
   */
  readonly idleGraceMs?: number;
  /** Streaming responses (SSE, long downloads) still open after this long are ended cleanly and their producers cancelled, ms. Default 1 000. */
  readonly streamGraceMs?: number;
}

/**
 * Closes a server without resetting a request: stops accepting, answers what arrives on open
 * connections with `Connection: close`, closes a keep-alive connection only after it has stayed
 * idle for a grace period, ends streams still open after theirs, and destroys what is left after
 * `forceAfterMs`. Resolves once every connection is gone.
 *
 * @example
 * await closeGracefully(server, connections, listeners, { forceAfterMs: 10_000 });
 */
export function closeGracefully(server: Server, connections: ReadonlySet<Socket>, handler: Pick<NodeListeners, 'streams' | 'closing' | 'webSockets'>, closeOptions: CloseOptions | undefined): Promise<void> {
  // http.Server#close also closes idle connections at once; the sweep below decides that itself.
  const stopListening = process.getBuiltinModule('node:net').Server.prototype.close as (this: Server, callback?: (error?: Error) => void) => Server;
  return new Promise<void>((resolve, reject) => {
    // Responses written from now on say `Connection: close`, so busy connections end after
    // their answer. Idle keep-alive connections are closed only once they have stayed idle
    // for a grace period: closing one the moment a client writes a request on it would
    // reset that request with no answer (Node's own close() sweeps idle connections at once).
    handler.closing = true;
    const idleGraceMs = closeOptions?.idleGraceMs ?? 500;
    const seen = new Map<Socket, { bytes: number; since: number }>();
    const sweep = setInterval(() => {
      const now = Date.now();
      for (const socket of connections) {
        // A WebSocket is closed by the app's WebSocket shutdown (1001, then a grace), not as an idle connection.
        if (handler.webSockets.sockets.has(socket)) continue;
        const busy = (socket as Socket & { _httpMessage?: unknown })._httpMessage != null;
        const mark = seen.get(socket);
        if (busy || mark === undefined || mark.bytes !== socket.bytesRead) seen.set(socket, { bytes: socket.bytesRead, since: now });
        else if (now - mark.since >= idleGraceMs) socket.destroy();
      }
    }, Math.max(10, Math.min(50, idleGraceMs / 4)));
    const endStreams = setTimeout(() => {
      for (const stop of [...handler.streams]) stop();
    }, closeOptions?.streamGraceMs ?? 1_000);
    const forceAfterMs = closeOptions?.forceAfterMs;
    const force = forceAfterMs === undefined ? undefined : setTimeout(() => server.closeAllConnections(), forceAfterMs);
    // net.Server's close: stop accepting, resolve once every connection is gone.
    stopListening.call(server, (error?: Error) => {
      clearInterval(sweep);
      clearTimeout(endStreams);
      if (force !== undefined) clearTimeout(force);
      if (error !== undefined && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
      else resolve();
    });
  });
}
