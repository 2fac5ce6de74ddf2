import { createToken, type Token } from '../di/token.js';

/**
 * Attributes of a library's spans and counters: fixed words and names, never a credential nor
 * an error's message.
 *
 * @example
 * const attributes: TelemetryAttributes = { reason: 'expired' };
 */
export type TelemetryAttributes = Readonly<Record<string, string>>;

/**
 * A counter a library declares once, in its instrumentation scope; the instrumentation makes the
 * instrument in whichever meter provider the request is followed with.
 *
 * @example
 * const REFUSALS: TelemetryCounter = { scope: 'tessera-http/auth', name: 'tessera.auth.token.refusals', description: 'Bearer tokens refused, by reason.', unit: '{request}' };
 */
export interface TelemetryCounter {
  readonly scope: string;
  readonly name: string;
  readonly description: string;
  readonly unit: string;
}

/**
 * A histogram a library declares once (a duration, in its unit), made like a {@link TelemetryCounter}.
 *
 * @example
 * const RUN_TIME: TelemetryHistogram = { scope: 'tessera-http/jobs', name: 'tessera.job.duration', description: 'How long job runs take.', unit: 's' };
 */
export interface TelemetryHistogram {
  readonly scope: string;
  readonly name: string;
  readonly description: string;
  readonly unit: string;
}

/**
 * How a Tessera library (the auth module) records what it does through the app's
 * instrumentation, so its spans and counters reach the providers the request's span reaches.
 * `openTelemetry()` keeps one in each followed request's OpenTelemetry context under
 * {@link LIBRARY_TELEMETRY_KEY}; a library reads it from the active context, and finding none
 * (no instrumentation, nothing collecting, outside a request) records nothing at all.
 *
 * @example
 * const telemetry = context.active().getValue(LIBRARY_TELEMETRY_KEY) as LibraryTelemetry | undefined;
 * telemetry?.count(REFUSALS, { reason: 'expired' });
 */
export interface LibraryTelemetry {
  /** Adds one to `counter`. */
  count(counter: TelemetryCounter, attributes?: TelemetryAttributes): void;
  /** Records `value` in `histogram`; optional, so instrumentations written before it still fit. */
  record?(histogram: TelemetryHistogram, value: number, attributes?: TelemetryAttributes): void;
  /** Sets attributes on the active span: the request's, unless a library span is open. */
  annotate(attributes: TelemetryAttributes): void;
  /**
   * Runs `work` in a child span `name` of the active span, from `scope`'s tracer; a failure
   * marks the span as an error with its `error.type`, never with the error's message.
   */
  inSpan<T>(scope: string, name: string, work: () => Promise<T>, attributes?: TelemetryAttributes): Promise<T>;
}

/**
 * The OpenTelemetry context key under which an instrumentation keeps the request's
 * {@link LibraryTelemetry}. Defined here, in the core, so that the instrumentation
 * (`tessera-http/otel`) and the libraries (`tessera-http/auth`) share it without importing each other.
 *
 * @example
 * const active = trace.setSpan(parent.setValue(LIBRARY_TELEMETRY_KEY, telemetry), span);
 */
export const LIBRARY_TELEMETRY_KEY: unique symbol = Symbol('tessera-http library telemetry');

/**
 * The app's library telemetry outside any request (its instrumentation's `library()`), as a
 * built-in every module can inject: background work (job runs) records its spans and metrics
 * through it. Calling it gives undefined while nothing collects.
 *
 * @example
 * defineFactory(Runner, [LIBRARY_TELEMETRY], (telemetry) => new Runner(() => telemetry()));
 */
export const LIBRARY_TELEMETRY: Token<() => LibraryTelemetry | undefined> = createToken<() => LibraryTelemetry | undefined>('LibraryTelemetry');
