// Straight from the core's leaf of names (no imports of its own): through the entry, a browser
// bundle of the type-only client would take the whole core in (see test/layers).
import { BEARER_PROTOCOL_PREFIX, JSON_PROTOCOL, TESSERA_PROTOCOL } from '../websocket/subprotocols.js';

/**
 * A WebSocket route's client end, typed from the route: `send` takes what the route's `message`
 * schema accepts (its input side), and listeners receive what its `send` schema describes, as
 * JSON delivers it. Text that is not JSON reaches listeners as the string it is; binary messages
 * as `ArrayBuffer`.
 *
 * @example
 * const live = api.socket('/posts/live');
 * live.onMessage((post) => render(post.title));
 * await live.opened;
 */
export interface TypedSocket<Send, Receive> {
  /** The platform's WebSocket underneath, for what this wrapper does not cover. */
  readonly socket: WebSocket;
  /** Resolves once the socket is open; rejects if it closes first (a refused upgrade). */
  readonly opened: Promise<void>;
  /** Resolves with the close code and reason, however the socket ends. */
  readonly closed: Promise<{ readonly code: number; readonly reason: string }>;
  /**
   * Sends one message: bytes as they are, anything else as JSON, except a string to a route
   * without a `message` schema (the server did not choose `tessera.json`), which goes as it is.
   */
  send(message: Send): void;
  /** Calls `listener` with each message; returns the function that stops listening. */
  onMessage(listener: (message: Receive) => void): () => void;
  close(code?: number, reason?: string): void;
}


/** What opening a socket takes beside the path: the route's params and query, and a token. */
export interface SocketWireInput {
  readonly params?: Readonly<Record<string, string | number | boolean>>;
  readonly query?: Readonly<Record<string, unknown>>;
  /** A bearer token, carried as a subprotocol entry (browsers cannot set `Authorization` on a WebSocket). */
  readonly token?: string;
  /** Further subprotocols to offer, in preference order, before `tessera.json` and `tessera`. */
  readonly protocols?: readonly string[];
}

/**
 * Opens a WebSocket to `url` (an http(s) URL, turned ws(s)) and wraps it.
 *
 * @example
 * const live = openTypedSocket('https://api.example.com/posts/live', { token });
 */
export function openTypedSocket(url: string, input: Pick<SocketWireInput, 'token' | 'protocols'>, WebSocketClass: typeof WebSocket = globalThis.WebSocket): TypedSocket<unknown, unknown> {
  const protocols = [...(input.protocols ?? []), JSON_PROTOCOL, TESSERA_PROTOCOL, ...(input.token === undefined ? [] : [`${BEARER_PROTOCOL_PREFIX}${input.token}`])];
  const socket = new WebSocketClass(url.replace(/^http/, 'ws'), protocols);
  socket.binaryType = 'arraybuffer';
  // An error is always followed by a close, which settles `opened` and `closed`.
  socket.addEventListener('error', () => undefined);
  const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.addEventListener('close', (event) => resolve({ code: event.code, reason: event.reason })));
  const opened = new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve());
    void closed.then(({ code }) => reject(new Error(`The WebSocket closed before it opened (code ${code}): the server refused the upgrade or could not be reached.`)));
  });
  // A refused upgrade is reported through `opened`; an unobserved rejection must not crash a page.
  opened.catch(() => undefined);
  return {
    socket,
    opened,
    closed,
    send(message) {
      // Only the handshake tells whether the route JSON-parses text: a string is JSON there too.
      const raw = message instanceof Uint8Array || message instanceof ArrayBuffer || (typeof message === 'string' && socket.protocol !== JSON_PROTOCOL);
      socket.send(raw ? (message as string | Uint8Array | ArrayBuffer) : JSON.stringify(message));
    },
    onMessage(listener) {
      const onMessage = (event: MessageEvent) => {
        const data: unknown = event.data;
        if (typeof data !== 'string') return listener(data);
        let value: unknown = data;
        try {
          value = JSON.parse(data);
        } catch {
          // not JSON: the text as it came
        }
        listener(value);
      };
      socket.addEventListener('message', onMessage);
      return () => socket.removeEventListener('message', onMessage);
    },
    close(code, reason) {
      socket.close(code, reason);
    },
  };
}
