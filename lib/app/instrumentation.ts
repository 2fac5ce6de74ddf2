import type { LogFields } from '../logging/logger.js';
import type { RequestContext } from '../context/request-context.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { RouteInfo } from '../context/route-info.js';
import type { LibraryTelemetry } from '../telemetry/library-telemetry.js';

/**
 * What an instrumentation (tracing and metrics, for example `openTelemetry()` from
 * `tessera-http/otel`) follows of one request, from before the middleware to the answer. The
 * core calls it; it never changes an answer.
 *
 * @example
 * const telemetry: RequestTelemetry = { run: (fn) => fn(), bind: (fn) => fn, routed() {}, failed() {}, end() {}, logBindings: () => ({}) };
 */
export interface RequestTelemetry {
  /** Runs `fn` with this request's trace context active (middleware, routing, guards, handler). */
  run<T>(fn: () => T): T;
  /** `fn`, bound to this request's trace context: for callbacks a runtime makes later (the end of a body on Node). */
  bind<F extends (...args: never[]) => unknown>(fn: F): F;
  /** The router matched `route` (its template names the span and labels the metrics). */
  routed(route: RouteInfo): void;
  /** An error was turned into the answer (recorded when the answer is a 5xx). */
  failed(error: unknown): void;
  /** The answer is ready (for a stream: its head), with this status. Called once. */
  end(status: number): void;
  /** Fields for the request's log lines (`trace_id`, `span_id`). */
  logBindings(): LogFields;
}

/**
 * Follows requests: `start` is called for each request the app serves (except the health
 * endpoints), before the middleware, and returns what follows that one request, or undefined
 * to leave it alone.
 *
 * @example
 * const app = await createApp(AppModule, { instrumentation: openTelemetry() });
 */
export interface Instrumentation {
  /** `incoming` is the request as the adapter read it (scheme, version, raw query); `ctx` its context. */
  start(incoming: IncomingRequest, ctx: RequestContext): RequestTelemetry | undefined;
  /**
   * The library telemetry for what happens outside any request (the app's bus dropping a message
   * its engine refused), on the same providers as the requests; undefined while nobody collects.
   */
  library?(): LibraryTelemetry | undefined;
}
