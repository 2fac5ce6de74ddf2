import { toResponse, type Answer, type SharedHeadersForm } from '../http/answer.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { Context } from '../context/request-context.js';
import { settleUpgrade, type AcceptedUpgrade } from '../websocket/upgrade-answer.js';

/**
 * Receives a request's answer, exactly once: what a runtime adapter gives `app.handle` to write
 * the answer (the Node adapter writes it to the socket, `app.fetch` resolves its Response). It
 * may be called before `handle` returns (a synchronous handler) or later (as the body ends, after
 * an async guard or handler). Errors never reach it: they are answers by then.
 *
 * @example
 * app.handle(incoming, (answer) => write(res, answer));
 */
export type Reply = (answer: Answer) => void;

/**
 * Turns an error into the answer for it (the app's `onError`, else the default problem). May be
 * asynchronous when `onError` is; never rejects.
 */
export type Recover = (error: unknown, ctx: Context) => Answer | Promise<Answer>;

/** Whether a value is a thenable (a handler or guard may return any promise implementation). */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

/** Hands an answer to `reply`, once it is settled when it is a promise (which must not reject). */
export function deliver(answer: Answer | Promise<Answer>, reply: Reply): void {
  if (answer instanceof Promise) answer.then(reply);
  else reply(answer);
}

/**
 * What {@link responseOf} answers a request with: `app.handle` with the parameters ignored, or a
 * route's responder with the parameters the runtime's router found.
 */
export type ResponseSource = (incoming: IncomingRequest, params: Readonly<Record<string, string>>, reply: Reply) => void;

/**
 * Answers one request and gives its answer as a web Response: what `app.fetch` and the
 * fetch-runtime adapters return. A request answered before `source` returns (a synchronous
 * handler) gets its Response directly, with no promise: Bun, Deno and Workers all take a plain
 * Response from a fetch handler, and skip their promise handling for it. A 101 is settled by
 * `settleUpgrade`: completed by `upgrade` (the runtime's Response for it), or 501.
 *
 * @example
 * const viaApp: ResponseSource = (incoming, _params, reply) => app.handle(incoming, reply);
 * const response = await responseOf(viaApp, incomingFromRequest(request));
 */
export function responseOf(
  source: ResponseSource,
  incoming: IncomingRequest,
  params: Readonly<Record<string, string>> = NO_PARAMS,
  sharedHeaders: SharedHeadersForm = 'Headers',
  upgrade?: (accepted: AcceptedUpgrade, incoming: IncomingRequest) => Response,
): Response | Promise<Response> {
  let early: Answer | undefined;
  let later: Reply | undefined;
  source(incoming, params, (answer) => {
    if (later === undefined) early = answer;
    else later(answer);
  });
  if (early !== undefined) {
    try {
      return webResponse(early, incoming, sharedHeaders, upgrade);
    } catch (error) {
      return Promise.reject(error);
    }
  }
  return new Promise<Response>((resolve, reject) => {
    later = (answer) => {
      try {
        resolve(webResponse(answer, incoming, sharedHeaders, upgrade));
      } catch (error) {
        reject(error);
      }
    };
  });
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

function webResponse(answer: Answer, incoming: IncomingRequest, sharedHeaders: SharedHeadersForm, upgrade: ((accepted: AcceptedUpgrade, incoming: IncomingRequest) => Response) | undefined): Response {
  return toResponse(settleUpgrade(incoming, answer, upgrade), sharedHeaders);
}
