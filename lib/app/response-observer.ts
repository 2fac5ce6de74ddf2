import type { RequestContext } from '../context/request-context.js';

/**
 * What an observer learns about each answered request. `ctx` is absent for requests that
 * matched no route (404, 405, bad path).
 *
 * @example
 * const observer: ResponseObserver = (e) => metrics.observe(e.status, e.durationMs);
 */
export interface ResponseEvent {
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  readonly status: number;
  readonly durationMs: number;
  readonly ctx: RequestContext | undefined;
}

/**
 * Called once per request after its response is ready (for streamed bodies: when the headers
 * are). Observers see every answer, including guard refusals and 404s, which is why the
 * access log is one.
 *
 * @example
 * createApp(AppModule, { onResponse: [(event) => metrics.observe(event.status, event.durationMs)] });
 */
export type ResponseObserver = (event: ResponseEvent) => void;
