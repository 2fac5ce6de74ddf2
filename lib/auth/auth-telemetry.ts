import { metrics, SpanKind, SpanStatusCode, trace, type Counter } from '@opentelemetry/api';

// What the auth module tells OpenTelemetry: outcome attributes on the request's span, child spans
// for store calls and JWKS fetches, and refusal counters. Never a credential: reasons are fixed
// words, store spans carry the store and method names, never arguments or error messages.

const SCOPE = 'tessera-http/auth';
const tracer = trace.getTracer(SCOPE);

/** How a request presented itself, as the auth guards saw it. */
export type AuthMethod = 'bearer' | 'api-key' | 'none';

interface AuthCounters {
  readonly tokenRefusals: Counter;
  readonly apiKeyRefusals: Counter;
  readonly rateLimited: Counter;
  readonly refreshReuse: Counter;
}

// Made at the first use, not at import, and made again when the global meter provider changes:
// the metrics API has no proxy provider, so instruments made before an SDK registers its meter
// provider would stay no-ops for the life of the process.
let counters: { readonly provider: unknown; readonly counters: AuthCounters } | undefined;
function authCounters(): AuthCounters {
  const provider = metrics.getMeterProvider();
  if (counters?.provider !== provider) {
    const meter = provider.getMeter(SCOPE);
    counters = {
      provider,
      counters: {
        tokenRefusals: meter.createCounter('tessera.auth.token.refusals', { description: 'Bearer tokens refused, by reason.', unit: '{request}' }),
        apiKeyRefusals: meter.createCounter('tessera.auth.api_key.refusals', { description: 'API keys refused, by reason.', unit: '{request}' }),
        rateLimited: meter.createCounter('tessera.auth.rate_limited', { description: 'Requests refused by a rate limit.', unit: '{request}' }),
        refreshReuse: meter.createCounter('tessera.auth.refresh_token.reuse', { description: 'Rotated refresh tokens presented again (reuse detected; the family is revoked).', unit: '{event}' }),
      },
    };
  }
  return counters.counters;
}

/** Puts the auth outcome on the active (request) span: how the caller presented itself, and why it was refused. */
function markSpan(method: AuthMethod, refusal: string | undefined): void {
  const span = trace.getActiveSpan();
  if (span === undefined || !span.isRecording()) return;
  span.setAttribute('tessera.auth.method', method);
  if (refusal !== undefined) span.setAttribute('tessera.auth.refusal', refusal);
}

/**
 * Records a bearer token's refusal: the counter by reason, and the request span's attributes.
 *
 * @example
 * recordTokenRefusal('expired');
 */
export function recordTokenRefusal(reason: string): void {
  authCounters().tokenRefusals.add(1, { reason });
  markSpan(reason === 'missing' ? 'none' : 'bearer', reason);
}

/**
 * Records an API key's refusal by reason (counter and span attributes).
 *
 * @example
 * recordApiKeyRefusal('revoked');
 */
export function recordApiKeyRefusal(reason: string): void {
  authCounters().apiKeyRefusals.add(1, { reason });
  markSpan('api-key', reason);
}

/**
 * Records an accepted credential on the request span.
 *
 * @example
 * recordAuthenticated('api-key');
 */
export function recordAuthenticated(method: Exclude<AuthMethod, 'none'>): void {
  markSpan(method, undefined);
}

/**
 * Counts a request refused by a rate limit (call it where the limit answers 429).
 *
 * @example
 * if (waitMs > 0) { recordRateLimited(); throw new TooManyRequestsException('Slow down'); }
 */
export function recordRateLimited(): void {
  authCounters().rateLimited.add(1);
  markSpan('api-key', 'rate_limited');
}

/**
 * Counts a detected refresh-token reuse (the family is then revoked).
 *
 * @example
 * recordRefreshReuse();
 */
export function recordRefreshReuse(): void {
  authCounters().refreshReuse.add(1);
}

/**
 * Runs `work` in a child span named `name` (`jwks.fetch`, `ApiKeyStore.find`); an error marks the
 * span with its type only (a store's message may hold a query or an id).
 *
 * @example
 * const keys = await inAuthSpan('jwks.fetch', () => remote.reload(), { 'url.full': url });
 */
export function inAuthSpan<T>(name: string, work: () => Promise<T>, attributes?: Readonly<Record<string, string>>): Promise<T> {
  return tracer.startActiveSpan(name, { kind: SpanKind.INTERNAL, ...(attributes === undefined ? {} : { attributes }) }, async (span) => {
    try {
      return await work();
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR });
      span.setAttribute('error.type', error instanceof Error ? error.name : typeof error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/**
 * The store, with each of its methods run in a child span `{name}.{method}`; everything else as is.
 *
 * @example
 * const store = tracedStore(refreshTokenStore, 'RefreshTokenStore');
 */
export function tracedStore<T extends object>(store: T, name: string): T {
  return new Proxy(store, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string' || property === 'constructor') return value;
      return (...args: unknown[]) => inAuthSpan(`${name}.${property}`, async () => (value as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}
