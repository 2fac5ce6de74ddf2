import type { Socket } from 'node:net';

/** How long a closing connection keeps reading (and dropping) what the client still sends. */
export const LINGER_MS = 2_000;
/** How many bytes it drops at most before giving up on the client reading the answer. */
export const LINGER_BYTES = 16 * 1_048_576;

const lingering = new WeakSet<Socket>();

/**
 * Closes a connection whose client may still be sending (a body refused with 413, say) without
 * resetting it. Closing a socket with unread bytes makes the kernel send a reset, which can
 * destroy the answer before the client reads it (the client sees EPIPE or ECONNRESET, never the
 * 413). So: send FIN after the answer, keep reading and dropping for up to {@link LINGER_MS} or
 * {@link LINGER_BYTES}, and only then destroy; a client that closes its side ends it sooner.
 * The same "lingering close" web servers such as Apache and nginx do.
 *
 * @example
 * lingeringClose(req.socket); // after the response has been written
 */
export function lingeringClose(socket: Socket): void {
  if (socket.destroyed || lingering.has(socket)) return;
  lingering.add(socket);
  let dropped = 0;
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.on('data', (chunk: Buffer) => {
    dropped += chunk.byteLength;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  socket.once('end', () => socket.destroy());
  socket.once('close', () => clearTimeout(timer));
  socket.on('error', () => socket.destroy());
  if (socket.writable) socket.end();
  socket.resume();
  // Node's HTTP server stops reading a connection whose last response is out (its handle is
  // consumed by the HTTP parser, so `resume()` alone does not restart it). Restart it the way
  // Node itself does when it resumes a connection; what arrives is parsed as more body and dropped.
  const handle = (socket as Socket & { _handle?: { reading: boolean; readStart(): number } | null })._handle;
  if (handle && !handle.reading) {
    handle.reading = true;
    handle.readStart();
  }
}

/**
 * Makes Node's own end-of-response close of this socket (`destroySoon`, used after a
 * `Connection: close` answer) a lingering close instead.
 *
 * @example
 * lingerWhenClosed(req.socket); // before writing a `Connection: close` 413
 */
export function lingerWhenClosed(socket: Socket): void {
  (socket as Socket & { destroySoon?: () => void }).destroySoon = () => lingeringClose(socket);
}
