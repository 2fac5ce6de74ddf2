import type { Answer, PlainAnswer } from '../http/answer.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { WebSocketSession } from './web-socket-session.js';
import type { PendingWebSocket } from './session-roles.js';

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
 * An upgrade the app accepted, as the runtime completes it: the session waiting for its socket,
 * and the headers of the 101 (the chosen subprotocol, and whatever middleware added).
 *
 * @example
 * upgrader.upgrade({ pending, headers }, { request, platform });
 */
export interface AcceptedUpgrade {
  readonly pending: PendingWebSocket;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What completes the upgrades an app accepts on one runtime: it switches the connection to
 * WebSocket and opens `accepted.pending` on it. `Connection` is what the runtime needs of the
 * upgrade request; `Completed` what completing gives back. On the fetch runtimes (the defaults)
 * that is the request and the handler's second argument, and the Response the runtime expects
 * from its fetch handler: `bunWebSocketUpgrader()`, `denoWebSocketUpgrader` and
 * `workersWebSocketUpgrader`, given to `toFetchHandler(app, { webSocketUpgrader })`. The Node
 * server builds its own over the `ws` package.
 *
 * @example
 * Deno.serve(toFetchHandler(app, { webSocketUpgrader: denoWebSocketUpgrader }));
 */
export interface WebSocketUpgrader<Connection = { readonly request: Request; readonly platform: unknown }, Completed = Response> {
  upgrade(accepted: AcceptedUpgrade, connection: Connection): Completed;
}

/**
 * The answer to an upgrade that nothing can complete: `app.fetch`, `app.request`, a fetch handler
 * made without the runtime's upgrader, a 101 no WebSocket route made. 501, on every runtime: the
 * server lacks the capability and retrying will not change that (503 would invite a retry; it is
 * what the app answers while it shuts down, a passing state).
 */
const NOT_UPGRADED: PlainAnswer = Object.freeze({
  status: 501,
  headers: Object.freeze({ 'content-type': 'application/problem+json' }),
  body: JSON.stringify({
    type: 'about:blank',
    title: 'Not Implemented',
    status: 501,
    detail: "This server cannot upgrade to WebSocket: serve the app with the runtime's adapter (serve from tessera-http/node, bunServer or denoServer, or toFetchHandler with the runtime's webSocketUpgrader).",
  }),
});

/**
 * The one rule every runtime applies to an app's answer before writing it: a 101 is never written
 * as it is. A 101 that accepted an upgrade for this request (a middleware may have added headers
 * to it) goes to `complete`, which hands the connection over, and what it returns comes back; a
 * 101 that nothing completes (no `complete`, or no upgrade behind it) becomes the 501 refusal.
 * Any other answer comes back as it is, to be written as usual (a middleware may have replaced
 * the 101 with one). The accepted upgrade is taken once.
 *
 * @example
 * const settled = settleUpgrade(incoming, answer, (accepted) => upgrader.upgrade(accepted, { request, platform }));
 * return settled instanceof Response ? settled : toResponse(settled);
 */
export function settleUpgrade<Completed>(incoming: IncomingRequest, answer: Answer, complete?: (accepted: AcceptedUpgrade, incoming: IncomingRequest) => Completed): Answer | Completed {
  if (answer instanceof Response || answer.status !== 101) return answer;
  const session = pending.get(incoming);
  pending.delete(incoming);
  if (session === undefined || complete === undefined) return NOT_UPGRADED;
  // The answer is final: from here on the socket's context needs only the request's detached view
  // (the adapter completes the upgrade with its own objects, not the context's).
  session.detachRequest();
  return complete({ pending: session, headers: answer.headers }, incoming);
}
