import type { WebSocketPort } from '../../internal/web-sockets.js';

/** A frame or a close waiting for the socket's own request context. */
type Outgoing = string | Uint8Array | { readonly code: number; readonly reason: string };

/**
 * A port that queues every write and sends it from the context it was made in. Workers let only
 * the request that accepted a socket write to it ("Cannot perform I/O on behalf of a different
 * request"), so a topic published from another request could not reach it directly: a pump that
 * runs in the socket's own request context, woken by a promise made there, sends what is queued
 * until `closed` resolves. `bufferedAmount` is the queue's bytes (workerd does not tell its own).
 *
 * @example
 * bindStandardWebSocket(server, pending, { open: true, port: queuedPort });
 */
export function queuedPort(direct: WebSocketPort, closed: Promise<void>): WebSocketPort {
  const queue: Outgoing[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const push = (item: Outgoing) => {
    queue.push(item);
    wake?.();
  };
  void closed.then(() => {
    done = true;
    wake?.();
  });
  const pump = async () => {
    while (!done) {
      if (queue.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
      for (const item of queue.splice(0)) {
        if (typeof item === 'string' || item instanceof Uint8Array) direct.send(item);
        else direct.close(item.code, item.reason);
      }
    }
  };
  void pump().catch(() => undefined);
  return {
    send: push,
    close: (code, reason) => push({ code, reason }),
    terminate: () => push({ code: 1001, reason: 'Going away' }),
    get bufferedAmount() {
      let bytes = 0;
      for (const item of queue) bytes += typeof item === 'string' ? item.length : item instanceof Uint8Array ? item.byteLength : 0;
      return bytes;
    },
  };
}
