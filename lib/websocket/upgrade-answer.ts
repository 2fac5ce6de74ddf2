import type { Answer, PlainAnswer } from '../http/answer.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { PendingWebSocket, WebSocketSession } from './web-socket-session.js';

/** The answer that accepts an upgrade: 101 with the chosen subprotocol; the adapter does the rest. */
class UpgradeAnswer implements PlainAnswer {
  readonly status = 101;
  readonly body = null;
  constructor(readonly headers: Readonly<Record<string, string>>) {}
}

/** Upgrades accepted and not yet taken by their adapter, by request. */
const pending = new WeakMap<IncomingRequest, WebSocketSession>();

/** The 101 answer for an accepted upgrade, its session waiting for the adapter that serves `incoming`. */
export function acceptedUpgrade(incoming: IncomingRequest, session: WebSocketSession, protocol: string | undefined): PlainAnswer {
  pending.set(incoming, session);
  return new UpgradeAnswer(protocol === undefined ? {} : { 'sec-websocket-protocol': protocol });
}

/**
 * The accepted upgrade behind an answer, for the adapter that serves `incoming`: present when the
 * answer is still the 101 a WebSocket route gave (a middleware may have replaced it with another
 * answer, which is then written as usual). Taken once.
 *
 * @example
 * const upgrade = takeWebSocketUpgrade(incoming, answer);
 * if (upgrade !== undefined) wss.handleUpgrade(req, socket, head, (ws) => bindSocket(ws, upgrade.pending));
 */
export function takeWebSocketUpgrade(incoming: IncomingRequest, answer: Answer): { readonly pending: PendingWebSocket; readonly headers: Readonly<Record<string, string>> } | undefined {
  if (answer instanceof Response || answer.status !== 101) return undefined;
  const session = pending.get(incoming);
  if (session === undefined) return undefined;
  pending.delete(incoming);
  return { pending: session, headers: answer.headers };
}

/** Whether an answer accepts a WebSocket upgrade (for the pipeline, which passes it through). */
export function isUpgradeAnswer(value: unknown): value is PlainAnswer {
  return value instanceof UpgradeAnswer;
}
