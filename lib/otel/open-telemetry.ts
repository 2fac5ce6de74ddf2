import { context, createNoopMeter, metrics, propagation, trace, ProxyTracerProvider, type Context, type MeterProvider, type TextMapGetter, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { IncomingRequest, Instrumentation, RequestContext, RequestTelemetry } from '../index.js';
import { LIBRARY_TELEMETRY_KEY } from '../internal/telemetry.js';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.js';
import { ProviderLibraryTelemetry } from './library-telemetry.js';
import { RequestSpan } from './request-span.js';

/**
 * Options of {@link openTelemetry}.
 *
 * @example
 * openTelemetry({ captureQuery: true, ignorePaths: ['/metrics'] });
 */
export interface OpenTelemetryOptions {
  /** Where spans go, the auth module's included. Default: the global provider the SDK registered (`trace.getTracerProvider()`). */
  readonly tracerProvider?: TracerProvider;
  /** Where metrics go, the auth module's counters included. Default: the global provider the SDK registered, read at each request (an SDK may register late). */
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
 * The auth module's spans and counters go to the same providers: each followed request's context
 * carries them (`LIBRARY_TELEMETRY_KEY`), and the auth module records nothing where none is.
 * With no SDK registered (the API's no-op tracer and meter providers), requests are not followed
 * at all and take the uninstrumented path; an SDK registered later is picked up. Node, Bun and
 * Deno need the SDK's AsyncLocalStorage context manager for nesting across `await`
 * (`@opentelemetry/context-async-hooks`, which NodeSDK registers); on Workers, enable
 * `nodejs_compat` for the same.
 *
 * @example
 * import { openTelemetry } from 'tessera-http/otel';
 * const app = await createApp(AppModule, { instrumentation: openTelemetry() });
 */
export function openTelemetry(options: OpenTelemetryOptions = {}): Instrumentation {
  const ignored = new Set(options.ignorePaths ?? []);
  const captureQuery = options.captureQuery === true;
  let followed: Followed | undefined;
  // Read at every use: an SDK may register its providers after the app is made.
  const current = (): Followed => {
    const tracerProvider = options.tracerProvider ?? trace.getTracerProvider();
    const meterProvider = options.meterProvider ?? metrics.getMeterProvider();
    const delegate = tracerProvider instanceof ProxyTracerProvider ? tracerProvider.getDelegate() : tracerProvider;
    if (followed === undefined || followed.delegate !== delegate || followed.meterProvider !== meterProvider) {
      followed = follow(tracerProvider, delegate, meterProvider);
    }
    return followed;
  };
  return {
    library() {
      const now = current();
      return now.idle ? undefined : now.libraries;
    },
    start(incoming: IncomingRequest, ctx: RequestContext): RequestTelemetry | undefined {
      if (ignored.has(incoming.path)) return undefined;
      const followed = current();
      // Nobody collects: the request takes the uninstrumented path (the cost target of no SDK).
      if (followed.idle) return undefined;
      const parent: Context = propagation.extract(context.active(), incoming, headerGetter).setValue(LIBRARY_TELEMETRY_KEY, followed.libraries);
      return new RequestSpan(followed.tracer, followed.httpMetrics, incoming, parent, captureQuery, ctx);
    },
  };
}

/** The tracer and the instruments for the providers in use, the libraries' too, and whether both providers are the API's no-ops. */
interface Followed {
  readonly delegate: TracerProvider;
  readonly meterProvider: MeterProvider;
  readonly tracer: Tracer;
  readonly httpMetrics: HttpMetrics;
  readonly libraries: ProviderLibraryTelemetry;
  readonly idle: boolean;
}

/**
 * What the API hands out when no SDK registered anything: the proxy's delegate before one is set
 * (read off a fresh proxy; the API exports no other handle on it) and the no-op meter.
 */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();
const NOOP_METER = createNoopMeter();

function follow(tracerProvider: TracerProvider, delegate: TracerProvider, meterProvider: MeterProvider): Followed {
  const meter = meterProvider.getMeter(INSTRUMENTATION_SCOPE);
  return {
    delegate,
    meterProvider,
    tracer: tracerProvider.getTracer(INSTRUMENTATION_SCOPE),
    httpMetrics: createHttpMetrics(meter),
    libraries: new ProviderLibraryTelemetry(tracerProvider, meterProvider),
    idle: delegate === NOOP_TRACER_PROVIDER && meter === NOOP_METER,
  };
}
