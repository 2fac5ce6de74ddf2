import { SpanKind, SpanStatusCode, trace, type Counter, type Histogram, type MeterProvider, type Tracer, type TracerProvider } from '@opentelemetry/api';
import type { LibraryTelemetry, TelemetryAttributes, TelemetryCounter, TelemetryHistogram } from '../internal/telemetry.js';
import { errorType, OTHER_ERROR_TYPE } from './error-type.js';
import { ATTR_ERROR_TYPE } from './semantic-conventions.js';

/**
 * The libraries' spans and counters in the providers `openTelemetry()` follows requests with:
 * one per pair of providers, kept in each followed request's context. Tracers, meters and
 * counters are made at their first use and kept (the providers do not change under it: a new
 * pair gets a new one).
 *
 * @example
 * const telemetry = new ProviderLibraryTelemetry(tracerProvider, meterProvider);
 * await telemetry.inSpan('tessera-http/auth', 'ApiKeyStore.find', () => store.find(id));
 */
export class ProviderLibraryTelemetry implements LibraryTelemetry {
  readonly #tracerProvider: TracerProvider;
  readonly #meterProvider: MeterProvider;
  readonly #tracers = new Map<string, Tracer>();
  readonly #counters = new Map<TelemetryCounter, Counter>();
  readonly #histograms = new Map<TelemetryHistogram, Histogram>();

  constructor(tracerProvider: TracerProvider, meterProvider: MeterProvider) {
    this.#tracerProvider = tracerProvider;
    this.#meterProvider = meterProvider;
  }

  count(counter: TelemetryCounter, attributes?: TelemetryAttributes): void {
    let instrument = this.#counters.get(counter);
    if (instrument === undefined) {
      instrument = this.#meterProvider.getMeter(counter.scope).createCounter(counter.name, { description: counter.description, unit: counter.unit });
      this.#counters.set(counter, instrument);
    }
    instrument.add(1, attributes);
  }

  record(histogram: TelemetryHistogram, value: number, attributes?: TelemetryAttributes): void {
    let instrument = this.#histograms.get(histogram);
    if (instrument === undefined) {
      instrument = this.#meterProvider.getMeter(histogram.scope).createHistogram(histogram.name, { description: histogram.description, unit: histogram.unit });
      this.#histograms.set(histogram, instrument);
    }
    instrument.record(value, attributes);
  }

  annotate(attributes: TelemetryAttributes): void {
    const span = trace.getActiveSpan();
    if (span !== undefined && span.isRecording()) span.setAttributes(attributes);
  }

  inSpan<T>(scope: string, name: string, work: () => Promise<T>, attributes?: TelemetryAttributes): Promise<T> {
    return this.#tracer(scope).startActiveSpan(name, { kind: SpanKind.INTERNAL, ...(attributes === undefined ? {} : { attributes }) }, async (span) => {
      try {
        return await work();
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute(ATTR_ERROR_TYPE, errorType(error, OTHER_ERROR_TYPE));
        throw error;
      } finally {
        span.end();
      }
    });
  }

  #tracer(scope: string): Tracer {
    let tracer = this.#tracers.get(scope);
    if (tracer === undefined) {
      tracer = this.#tracerProvider.getTracer(scope);
      this.#tracers.set(scope, tracer);
    }
    return tracer;
  }
}
