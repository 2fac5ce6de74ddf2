import { describe, expect, it } from 'vitest';
import type { PendingWebSocket, WebSocketEvents, WebSocketPort } from '../../lib/internal/web-sockets.js';
import { bindStandardWebSocket, type StandardServerSocket } from '../../lib/adapters/fetch/standard-web-socket.js';
import { queuedPort } from '../../lib/adapters/workers/queued-port.js';

type Listener = (event: { data?: unknown; code?: number; reason?: string }) => void;

/** A WHATWG server socket as Deno and workerd hand it out, recording what it is told. */
function fakeSocket(binaryType?: string) {
  const listeners = new Map<string, Listener[]>();
  const sent: unknown[] = [];
  const socket: StandardServerSocket = {
    binaryType,
    send: (data) => void sent.push(data),
    close: (code, reason) => void sent.push({ close: code, reason }),
    addEventListener: (type, listener) => void listeners.set(type, [...(listeners.get(type) ?? []), listener]),
  };
  const emit = (type: string, event: Parameters<Listener>[0] = {}) => {
    for (const listener of listeners.get(type) ?? []) listener(event);
  };
  return { socket, sent, emit };
}

/** A pending session that records the port it gets and the events it is told. */
function fakePending() {
  const seen: unknown[] = [];
  let port: WebSocketPort | undefined;
  const pending: PendingWebSocket = {
    protocol: undefined,
    maxMessageBytes: 1_024,
    idleTimeoutSeconds: 60,
    open(given) {
      port = given;
      const events: WebSocketEvents = {
        message: (data) => void seen.push(data),
        pong: () => undefined,
        drain: () => undefined,
        closed: (code, reason) => void seen.push({ closed: code, reason }),
      };
      return events;
    },
  };
  return { pending, seen, port: () => port };
}

const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await Promise.resolve();
};

describe('one standard-socket binding (Deno, workerd)', () => {
  it("opens on the socket's open event when it is not open yet, and reports messages and the close", () => {
    const { socket, emit } = fakeSocket('blob');
    const session = fakePending();
    bindStandardWebSocket(socket, session.pending, { open: false });
    expect(session.port(), 'not opened before the open event').toBeUndefined();
    emit('open');
    expect(socket.binaryType, 'binary messages as ArrayBuffer').toBe('arraybuffer');
    emit('message', { data: 'text' });
    emit('message', { data: new Uint8Array([1, 2]).buffer });
    emit('close', { code: 1000, reason: 'bye' });
    expect(session.seen).toEqual(['text', new Uint8Array([1, 2]), { closed: 1000, reason: 'bye' }]);
  });

  it('writes straight to the socket, terminate being a 1001 close', () => {
    const { socket, sent } = fakeSocket();
    const session = fakePending();
    bindStandardWebSocket(socket, session.pending, { open: true });
    session.port()?.send('a');
    session.port()?.terminate();
    expect(sent).toEqual(['a', { close: 1001, reason: 'Going away' }]);
    expect(socket.binaryType, 'a socket without the setting is left as it is').toBeUndefined();
  });

  it('on workerd, queues every write and sends it in order from the pump, counting the queued bytes', async () => {
    const { socket, sent, emit } = fakeSocket();
    const session = fakePending();
    bindStandardWebSocket(socket, session.pending, { open: true, port: queuedPort });
    const port = session.port();
    port?.send('abc');
    port?.send(new Uint8Array([1, 2, 3, 4]));
    expect(sent, 'nothing written outside the pump').toEqual([]);
    expect(port?.bufferedAmount).toBe(7);
    await turns();
    expect(sent).toEqual(['abc', new Uint8Array([1, 2, 3, 4])]);
    expect(port?.bufferedAmount).toBe(0);
    port?.close(1000, 'done');
    await turns();
    expect(sent.at(-1)).toEqual({ close: 1000, reason: 'done' });
    emit('close', { code: 1000, reason: 'done' });
    await turns();
    port?.send('late');
    await turns();
    expect(sent.at(-1), 'the pump stops once the socket has closed').toEqual({ close: 1000, reason: 'done' });
  });
});
