import type { Socket } from 'node:net';

/** What Node's HTTP server keeps on each connection, read here. */
type HttpConnection = Socket & {
  /** The response being written; pipelined ones wait behind it. Set once a request's headers are parsed, cleared when its answer is out. */
  _httpMessage?: unknown;
  /** The connection's parser; `duration()` is 0 between messages, else the time since one began. */
  parser?: { duration?: (this: unknown) => number } | null;
};

/**
 * Whether an HTTP connection is between requests, so that closing it loses nothing: no answer
 * in progress, and no request bytes received and unanswered (a request whose headers or body
 * are still arriving, or one being handled). Only such a connection may be closed by graceful
 * close; a busy one ends after its answer, which says `Connection: close`.
 *
 * Read from Node's own records (the same two `server.closeIdleConnections()` uses: the response
 * in progress, and the parser's message in progress). A fresh connection's parser counts its
 * first request's header time from the accept, so it reads as between requests until a byte
 * arrives. Where the parser cannot say (another runtime's `node:http`), only the response is
 * looked at; the caller's byte count covers the rest.
 *
 * @example
 * if (isBetweenRequests(socket) && socket.bytesRead === seenBytes) socket.destroy();
 */
export function isBetweenRequests(socket: Socket): boolean {
  const connection = socket as HttpConnection;
  if (connection._httpMessage != null) return false;
  const parser = connection.parser;
  const duration = parser?.duration;
  if (typeof duration !== 'function' || socket.bytesRead === 0) return true;
  return duration.call(parser) === 0;
}
