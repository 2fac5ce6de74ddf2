import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { betweenRequestsNow } from './between-requests.js';
import type { NodeListeners } from './node-listeners.js';
import { stopAccepting } from './stop-accepting.js';

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
   * A keep-alive connection is closed once it has been between requests this long, ms: no
   * answer in progress, no request bytes received and unanswered, no byte received at all. A
   * request written on it meanwhile is answered (with `Connection: close`) instead of meeting a
   * reset. Default 500.
   */
  readonly idleGraceMs?: number;
  /** Streaming responses (SSE, long downloads) still open after this long are ended cleanly and their producers cancelled, ms. Default 1 000. */
  readonly streamGraceMs?: number;
}

/**
 * Closes a server without resetting a request: stops accepting (taking in what the kernel had
 * already queued, see `stopAccepting`), answers what arrives on open connections with
 * `Connection: close`, closes a keep-alive connection only between requests and after it has
 * stayed so for a grace period, ends streams still open after theirs, and destroys what is left
 * after `forceAfterMs`. Resolves once every connection is gone.
 *
 * @example
 * await closeGracefully(server, connections, listeners, { forceAfterMs: 10_000 });
 */
export function closeGracefully(server: Server, connections: ReadonlySet<Socket>, handler: Pick<NodeListeners, 'streams' | 'closing'>, closeOptions: CloseOptions | undefined): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    // Answers written from now on say `Connection: close`, so a busy connection ends after its
    // answer. An idle one is closed only once it has stayed between requests for a grace period:
    // a keep-alive client may be writing its next request at this very moment.
    handler.closing = true;
    const idleGraceMs = closeOptions?.idleGraceMs ?? 500;
    const seen = new Map<Socket, { bytes: number; since: number }>();
    const look = () => {
      const now = Date.now();
      const isBetweenRequests = betweenRequestsNow(server);
      for (const socket of connections) {
        const mark = seen.get(socket);
        if (!isBetweenRequests(socket) || mark === undefined || mark.bytes !== socket.bytesRead) seen.set(socket, { bytes: socket.bytesRead, since: now });
        else if (now - mark.since >= idleGraceMs) socket.destroy();
      }
    };
    // Looked at after the poll phase (setImmediate), never straight from the timer: after a stall
    // of the event loop (a long synchronous handler, a starved CPU) the timer runs before the
    // poll has read what clients wrote meanwhile, and a request waiting unread in the kernel
    // would look like idleness (and be reset by the close).
    const sweep = setInterval(() => setImmediate(look), Math.max(10, Math.min(50, idleGraceMs / 4)));
    const endStreams = setTimeout(() => {
      for (const stop of [...handler.streams]) stop();
    }, closeOptions?.streamGraceMs ?? 1_000);
    const forceAfterMs = closeOptions?.forceAfterMs;
    const force = forceAfterMs === undefined ? undefined : setTimeout(() => server.closeAllConnections(), forceAfterMs);
    stopAccepting(server, (error?: Error) => {
      clearInterval(sweep);
      clearTimeout(endStreams);
      if (force !== undefined) clearTimeout(force);
      if (error !== undefined && (error as NodeJS.ErrnoException).code !== 'ERR_SERVER_NOT_RUNNING') reject(error);
      else resolve();
    });
  });
}
