import type { Server } from 'node:http';

/**
 * How long the listener may keep taking connections while they keep coming, ms: a client that
 * reconnects at once after each `Connection: close` answer is served again and again until then.
 * Past it, the listener closes right after an accept, when the queue is empty. Below the second
 * after which a client whose handshake was dropped tries again, so that those retries (which
 * come all at once) find the port closed rather than a queue about to be reset.
 */
export const ACCEPT_QUEUE_GRACE_MS = 500;

/** Once the queue has run dry, how long no connection may come before the listener closes, ms. */
const QUIET_MS = 20;

/** The listening handle's own `listen`, which sets the kernel's backlog of a socket already listening. */
type ListenHandle = { listen?: (backlog: number) => number } | null | undefined;

/**
 * Stops a server from accepting connections without resetting the ones the kernel has already
 * completed. Closing a listening socket resets every connection still in its accept queue, and
 * such a client has usually written its request already (it sees a reset, not an answer). The
 * queue is not short under load: libuv 1.46 accepts one connection per turn of the event loop,
 * and a turn serving hundreds of keep-alive connections takes milliseconds.
 *
 * So, on Linux: the backlog is set to 0, which makes the kernel drop a new handshake while a
 * connection waits in the queue (the client retries a second later and finds the port closed:
 * it never wrote), and admit one only when the queue is empty. The queued connections are
 * accepted (their requests answered like any, with `Connection: close`) until a turn of the
 * event loop accepts none; the listener then closes once no connection has come for
 * {@link QUIET_MS}, or right after an accept past {@link ACCEPT_QUEUE_GRACE_MS}. Closing right
 * after an accept is not done earlier: while the clients answered last reconnect, a handshake
 * lands in the queue within microseconds of the accept (measured with wrk: one reset in most
 * shutdowns). Elsewhere than Linux, or when the handle cannot say (a cluster worker's shared
 * handle), it closes at once. `closed` is net.Server's close callback: called once every
 * connection has ended.
 *
 * @example
 * stopAccepting(server, (error) => (error ? reject(error) : resolve()));
 */
export function stopAccepting(server: Server, closed: (error?: Error) => void): void {
  // net.Server's close, not http.Server's: that one also closes idle connections at once, which
  // graceful close decides itself.
  const stopListening = process.getBuiltinModule('node:net').Server.prototype.close as (this: Server, callback?: (error?: Error) => void) => Server;
  const handle = (server as Server & { _handle?: ListenHandle })._handle;
  if (process.platform !== 'linux' || typeof handle?.listen !== 'function' || handle.listen(0) !== 0) {
    stopListening.call(server, closed);
    return;
  }
  const deadline = Date.now() + ACCEPT_QUEUE_GRACE_MS;
  let dry = false;
  let acceptedThisTurn = true;
  let accepted = 0;
  let turn: NodeJS.Immediate | undefined;
  let quiet: NodeJS.Timeout | undefined;
  const close = () => {
    server.off('connection', onConnection);
    clearImmediate(turn);
    clearTimeout(quiet);
    stopListening.call(server, closed);
  };
  // The quiet period is judged after a poll phase (setImmediate), never straight from the timer:
  // when the event loop is starved (a busy CPU, a long handler), the timer runs before the poll
  // has accepted a connection that waited in the queue meanwhile, and closing then resets it.
  const waitForQuiet = () => {
    clearTimeout(quiet);
    const acceptedBefore = accepted;
    quiet = setTimeout(() => {
      turn = setImmediate(() => (accepted === acceptedBefore ? close() : waitForQuiet()));
    }, QUIET_MS);
  };
  // First among the listeners, so that a close right after an accept follows it closely.
  const onConnection = () => {
    accepted++;
    acceptedThisTurn = true;
    if (Date.now() >= deadline) close();
    else if (dry) waitForQuiet();
  };
  server.prependListener('connection', onConnection);
  // Checked after each poll phase: a turn that accepted nothing found the queue empty. The first
  // check only starts the count, as a poll phase must have run since the backlog changed.
  const check = () => {
    if (!acceptedThisTurn) {
      dry = true;
      return waitForQuiet();
    }
    acceptedThisTurn = false;
    turn = setImmediate(check);
  };
  turn = setImmediate(check);
}
