import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/** The status Node's parser error deserves: 431 for oversized headers, 408 for a timeout, else 400. */
function statusOfClientError(error: NodeJS.ErrnoException): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** How long an answer in progress may take before bytes that are not HTTP close its connection. */
const IN_FLIGHT_GRACE_MS = 10_000;

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

/**
 * Answers bytes that are not a request (Node's parser failed) with a problem and closes. A
 * well-framed request read before the garbage (pipelining) gets its own answer first: Node's
 * default handler would destroy the socket at once and lose it.
 *
 * @example
 * server.on('clientError', onClientError);
 */
export function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = statusOfClientError(error);
  const answer = () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify({ type: 'about:blank', title: REASONS[status], status });
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    // Whatever the client still sends is not read: give it a moment to see the answer.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
  // Node's own record of the response in progress on this connection (pipelined ones wait behind it).
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  if (!inFlight || inFlight.writableFinished) {
    answer();
    return;
  }
  if (status === 408) {
    // A timeout concerns the request in flight itself: nothing to wait for.
    if (inFlight.headersSent) socket.destroy();
    else answer();
    return;
  }
  if (!inFlight.req.complete) {
    // The failure is inside the request in flight (a client that closed half-way through its
    // body, a broken chunk): that body will never end, so waiting for its answer would hold the
    // handler until the grace runs out. Closing makes its body read fail now (a 400 nobody sees).
    socket.destroy();
    return;
  }
  // Garbage after a well-framed request: that request is answered first, within a bound.
  const giveUp = setTimeout(() => socket.destroy(), IN_FLIGHT_GRACE_MS);
  giveUp.unref();
  inFlight.once('finish', () => {
    clearTimeout(giveUp);
    answer();
  });
  inFlight.once('close', () => inFlight.writableFinished || socket.destroy());
}
