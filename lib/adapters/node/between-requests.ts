import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What Node's HTTP server keeps on each connection, read here. */
type HttpConnection = Socket & {
  /** The response being written; pipelined ones wait behind it. Set once a request's headers are parsed, cleared when its answer is out. */
  _httpMessage?: unknown;
};

/**
 * Node's list of a server's HTTP connections (`ConnectionsList`, the one `server.closeIdleConnections()`
 * reads): `idle()` gives the parsers with no message in progress. It is the one record of "a
 * request's headers are arriving" that Node 20, 22 and 24 all keep: Node 20's per-parser
 * `duration()` is gone from 22 on.
 */
type ConnectionsList = { idle: () => ReadonlyArray<{ socket?: Socket | null } | null | undefined> };

/** The symbol Node's `http.Server` keeps its `ConnectionsList` under, found once per server. */
function connectionsListOf(server: Server): ConnectionsList | undefined {
  const key = Object.getOwnPropertySymbols(server).find((symbol) => symbol.description === 'http.server.connections');
  const list = key === undefined ? undefined : (server as unknown as Record<symbol, unknown>)[key];
  return typeof list === 'object' && list !== null && typeof (list as ConnectionsList).idle === 'function' ? (list as ConnectionsList) : undefined;
}

/**
 * Reads, at one moment, which of a server's HTTP connections are between requests, so that
 * closing them loses nothing: no answer in progress, and no request bytes received and
 * unanswered (a request whose headers or body are still arriving, or one being handled). Only
 * such a connection may be closed by graceful close; a busy one ends after its answer, which
 * says `Connection: close`. Call it once per look: the idle set is a snapshot.
 *
 * Read from Node's own records, the two `server.closeIdleConnections()` uses: the response in
 * progress (set once a request's headers are parsed, so it covers a body still arriving) and
 * the connections list's idle parsers (which covers headers still arriving). A fresh
 * connection's parser counts its first request's header time from the accept, so a connection
 * that has read no byte reads as between requests. Where Node's list is missing (another
 * runtime's `node:http`), only the response is looked at; the caller's byte count covers the
 * rest.
 *
 * @example
 * const betweenRequests = betweenRequestsNow(server);
 * if (betweenRequests(socket) && socket.bytesRead === seenBytes) socket.destroy();
 */
export function betweenRequestsNow(server: Server): (socket: Socket) => boolean {
  const idle = idleSocketsOf(server);
  return (socket) => {
    if ((socket as HttpConnection)._httpMessage != null) return false;
    if (idle === undefined || socket.bytesRead === 0) return true;
    return idle.has(socket);
  };
}

function idleSocketsOf(server: Server): ReadonlySet<Socket> | undefined {
  const list = connectionsListOf(server);
  if (list === undefined) return undefined;
  const idle = new Set<Socket>();
  for (const parser of list.idle()) if (parser?.socket != null) idle.add(parser.socket);
  return idle;
}
