import { context, metrics, propagation, trace, type Context, type MeterProvider, type TextMapGetter, type TracerProvider } from '@opentelemetry/api';
import type { IncomingRequest, Instrumentation, RequestContext, RequestTelemetry } from '../internal.js';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { RequestSpan } from './request-span.js';

/**
 * Options of {@link openTelemetry}.
 *
 * @example
 * openTelemetry({ captureQuery: true, ignorePaths: ['/metrics'] });
 */
export interface OpenTelemetryOptions {
  /** Where spans go. Default: the global provider the SDK registered (`trace.getTracerProvider()`). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go. Default: the global provider the SDK registered, read at the first request. */
  readonly meterProvider?: MeterProvider;
  /**
   * Records `url.query`. Off by default: query strings carry tokens and personal data more
   * often than they should.
   */
  readonly captureQuery?: boolean;
  /** Paths that are not traced nor measured (the health endpoints never are). */
  readonly ignorePaths?: readonly string[];
}

/** The name the tracer and the meter report (the instrumentation scope). */
export const INSTRUMENTATION_SCOPE = 'tessera-http';

/** Reads propagation headers (`traceparent`, `tracestate`, `baggage`) off the request. */
const headerGetter: TextMapGetter<IncomingRequest> = {
  get: (incoming, key) => incoming.header(key.toLowerCase()) ?? undefined,
  // Only propagators that enumerate headers need keys; the W3C ones ask by name.
  keys: () => [],
};

/**
 * Traces and measures every request through `@opentelemetry/api`: one SERVER span per request,
 * named `{method} {route template}` (just `{method}` when nothing matched), with the stable HTTP
 * semantic-convention attributes, an incoming W3C `traceparent` continued, and the span active
 * from the first middleware to the answer, so spans of user code and instrumented clients nest
 * under it; the `http.server.request.duration` histogram and `http.server.active_requests`.
 * Without an SDK registered, the API is a no-op and this costs next to nothing. Node, Bun and
 * Deno need the SDK's AsyncLocalStorage context manager for nesting across `await`
 * (`@opentelemetry/context-async-hooks`, which NodeSDK registers); on Workers, enable
 * `nodejs_compat` for the same.
 *
 * @example
 * import { openTelemetry } from 'tessera-http/otel';
 * const app = await createApp(AppModule, { instrumentation: openTelemetry() });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Instrumentation {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(INSTRUMENTATION_SCOPE);
  const ignored = new Set(options.ignorePaths ?? []);
  const captureQuery = options.captureQuery === true;
  // Made at the first request, not now: the metrics API has no proxy provider, so instruments
  // made before the SDK registers its provider would stay no-ops forever.
  let httpMetrics: HttpMetrics | undefined;
  return {
    start(incoming: IncomingRequest, _ctx: RequestContext): RequestTelemetry | undefined {
      if (ignored.has(incoming.path)) return undefined;
      httpMetrics ??= createHttpMetrics((options.meterProvider ?? metrics.getMeterProvider()).getMeter(INSTRUMENTATION_SCOPE));
      const parent: Context = propagation.extract(context.active(), incoming, headerGetter);
      return new RequestSpan(tracer, httpMetrics, incoming, parent, captureQuery);
    },
  };
}
