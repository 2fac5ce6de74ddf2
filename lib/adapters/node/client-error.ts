import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { isDiscardingBody } from './node-body.js';

/**
 * The status Node's parser error deserves: 431 for oversized headers, 408 for a timeout, 501 for
 * a transfer coding the server does not implement (RFC 9112 §6.1: only `chunked` is), else 400
 * (a malformed chunk, a bad request line, `chunked` not last: §6.3).
 */
function statusOfClientError(error: NodeJS.ErrnoException, transferEncoding: string | undefined): number {
  if (error.code === 'HPE_HEADER_OVERFLOW') return 431;
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  if (error.code === 'HPE_INVALID_TRANSFER_ENCODING' && transferEncoding !== undefined) {
    const codings = transferEncoding.split(',').map((coding) => coding.trim().toLowerCase());
    if (codings.some((coding) => coding !== 'chunked')) return 501;
  }
  return 400;
}

/** How long an answer in progress may take before bytes that are not HTTP close its connection. */
const IN_FLIGHT_GRACE_MS = 10_000;

const REASONS: Readonly<Record<number, string>> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large', 501: 'Not Implemented' };

function problemBody(status: number): string {
  return JSON.stringify({ type: 'about:blank', title: REASONS[status], status });
}

/**
 * Answers bytes that are not a request (Node's parser failed) with a problem and closes. A
 * well-framed request read before the garbage (pipelining) gets its own answer first: Node's
 * default handler would destroy the socket at once and lose it.
 *
 * @example
 * server.on('clientError', onClientError);
 */
export function onClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  // The client went away (a reset, or its end of the stream in the middle of a request): no one
  // is left to read an answer, and closing settles the body read of the request in flight now.
  if (error.code === 'ECONNRESET' || error.code === 'HPE_INVALID_EOF_STATE' || !socket.writable) {
    socket.destroy();
    return;
  }
  // Node's own record of the response in progress on this connection (pipelined ones wait behind it).
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
  const status = statusOfClientError(error, inFlight?.req.headers['transfer-encoding']);
  const answer = () => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    const body = problemBody(status);
    socket.end(
      `HTTP/1.1 ${status} ${REASONS[status]}\r\ncontent-type: application/problem+json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    );
    // Whatever the client still sends is not read: give it a moment to see the answer.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
  if (!inFlight) {
    // The broken body may be the unread rest of a request already answered (and being thrown
    // away to keep the connection): that request has had its one answer; close.
    if (isDiscardingBody(socket)) socket.destroy();
    else answer();
    return;
  }
  if (!inFlight.req.complete) {
    // The failure is inside the body of the request in flight (a malformed chunk, data longer
    // than its size, a transfer coding we do not implement): that body will never end. Its
    // answer is the refusal, unless one is already on its way (the handler did not wait for the
    // body); then there is nothing left to say, and closing ends the body read (its error
    // reaches no client).
    if (inFlight.headersSent) socket.destroy();
    else answerThrough(inFlight, status, socket);
    return;
  }
  if (inFlight.writableFinished) {
    answer();
    return;
  }
  if (status === 408) {
    // A timeout concerns the request in flight itself: nothing to wait for.
    if (inFlight.headersSent) socket.destroy();
    else answer();
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

/**
 * Refuses the request in flight through its own response object (so Node's bookkeeping stays
 * right and the app's answer, when it comes, finds the response taken), then closes once the
 * refusal is flushed.
 */
function answerThrough(res: ServerResponse, status: number, socket: Duplex): void {
  const body = problemBody(status);
  res.shouldKeepAlive = false;
  res.writeHead(status, { 'content-type': 'application/problem+json', 'content-length': Buffer.byteLength(body), connection: 'close' });
  res.end(body, () => socket.destroy());
  // A client that does not read must not hold the socket.
  setTimeout(() => socket.destroy(), 1_000).unref();
}
