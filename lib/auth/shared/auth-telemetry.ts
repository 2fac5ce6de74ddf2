import { context } from '@opentelemetry/api';
import { LIBRARY_TELEMETRY_KEY, type LibraryTelemetry, type TelemetryAttributes, type TelemetryCounter } from '../../internal/telemetry.js';

// What the auth module tells OpenTelemetry: outcome attributes on the request's span, child spans
// for store calls and JWKS fetches, and refusal counters. Never a credential: reasons are fixed
// words, store spans carry the store and method names, never arguments or error messages.
//
// All of it goes through the app's instrumentation: `openTelemetry()` keeps a LibraryTelemetry on
// the providers it follows requests with in each followed request's context, so an app that
// passes its own providers gets the auth spans and counters in them too. Where the active context
// holds none (no instrumentation, no SDK collecting, outside a request such as a readiness
// check), nothing is recorded and nothing is made.

const SCOPE = 'tessera-http/auth';

const TOKEN_REFUSALS: TelemetryCounter = { scope: SCOPE, name: 'tessera.auth.token.refusals', description: 'Bearer tokens refused, by reason.', unit: '{request}' };
const API_KEY_REFUSALS: TelemetryCounter = { scope: SCOPE, name: 'tessera.auth.api_key.refusals', description: 'API keys refused, by reason.', unit: '{request}' };
const RATE_LIMITED: TelemetryCounter = { scope: SCOPE, name: 'tessera.auth.rate_limited', description: 'Requests refused by a rate limit.', unit: '{request}' };
const SIGN_IN_THROTTLED: TelemetryCounter = {
  scope: SCOPE,
  name: 'tessera.auth.sign_in.throttled',
  description: 'Sign-ins refused by sign-in throttling (429 before the password was checked), by the dimension that refused.',
  unit: '{request}',
};
const SIGN_IN_THROTTLING_STARTED: TelemetryCounter = {
  scope: SCOPE,
  name: 'tessera.auth.sign_in.throttling_started',
  description: 'Failed sign-ins that reached a throttling threshold (the next sign-in for that key is refused), by dimension.',
  unit: '{event}',
};
const REFRESH_REUSE: TelemetryCounter = {
  scope: SCOPE,
  name: 'tessera.auth.refresh_token.reuse',
  description: 'Rotated refresh tokens presented again (reuse detected; the family is revoked).',
  unit: '{event}',
};

/** How a request presented itself, as the auth guards saw it. */
export type AuthMethod = 'bearer' | 'api-key' | 'none';

/** The app's instrumentation, as the request being served carries it; undefined when nothing follows it. */
function telemetry(): LibraryTelemetry | undefined {
  return context.active().getValue(LIBRARY_TELEMETRY_KEY) as LibraryTelemetry | undefined;
}

/** The request span's attributes: how the caller presented itself, and why it was refused. */
function outcome(method: AuthMethod, refusal: string | undefined): TelemetryAttributes {
  return refusal === undefined ? { 'tessera.auth.method': method } : { 'tessera.auth.method': method, 'tessera.auth.refusal': refusal };
}

/**
 * Records a bearer token's refusal: the counter by reason, and the request span's attributes.
 *
 * @example
 * recordTokenRefusal('expired');
 */
export function recordTokenRefusal(reason: string): void {
  const recorder = telemetry();
  if (recorder === undefined) return;
  recorder.count(TOKEN_REFUSALS, { reason });
  recorder.annotate(outcome(reason === 'missing' ? 'none' : 'bearer', reason));
}

/**
 * Records an API key's refusal by reason (counter and span attributes).
 *
 * @example
 * recordApiKeyRefusal('revoked');
 */
export function recordApiKeyRefusal(reason: string): void {
  const recorder = telemetry();
  if (recorder === undefined) return;
  recorder.count(API_KEY_REFUSALS, { reason });
  recorder.annotate(outcome('api-key', reason));
}

/**
 * Records an accepted credential on the request span.
 *
 * @example
 * recordAuthenticated('api-key');
 */
export function recordAuthenticated(method: Exclude<AuthMethod, 'none'>): void {
  telemetry()?.annotate(outcome(method, undefined));
}

/**
 * Counts a request refused by a rate limit (call it where the limit answers 429).
 *
 * @example
 * if (waitMs > 0) { recordRateLimited(); throw new TooManyRequestsException('Slow down'); }
 */
export function recordRateLimited(): void {
  const recorder = telemetry();
  if (recorder === undefined) return;
  recorder.count(RATE_LIMITED);
  recorder.annotate(outcome('api-key', 'rate_limited'));
}

/**
 * Counts a sign-in refused by throttling, by the dimension that refused it (`account-address`,
 * `address` or `account`: never a key), and marks the request span.
 *
 * @example
 * recordSignInThrottled('account-address');
 */
export function recordSignInThrottled(dimension: string): void {
  const recorder = telemetry();
  if (recorder === undefined) return;
  recorder.count(SIGN_IN_THROTTLED, { dimension });
  recorder.annotate({ 'tessera.auth.refusal': 'sign_in_throttled' });
}

/**
 * Counts a failed sign-in that reached a throttling threshold, by dimension.
 *
 * @example
 * recordSignInThrottlingStarted('address');
 */
export function recordSignInThrottlingStarted(dimension: string): void {
  telemetry()?.count(SIGN_IN_THROTTLING_STARTED, { dimension });
}

/**
 * Counts a detected refresh-token reuse (the family is then revoked).
 *
 * @example
 * recordRefreshReuse();
 */
export function recordRefreshReuse(): void {
  telemetry()?.count(REFRESH_REUSE);
}

/**
 * Runs `work` in a child span named `name` (`jwks.fetch`, `ApiKeyStore.find`); an error marks the
 * span with its `error.type` only (a store's message may hold a query or an id). Untraced, `work`
 * just runs.
 *
 * @example
 * const keys = await inAuthSpan('jwks.fetch', () => remote.reload(), { 'url.full': url });
 */
export function inAuthSpan<T>(name: string, work: () => Promise<T>, attributes?: TelemetryAttributes): Promise<T> {
  const recorder = telemetry();
  if (recorder !== undefined) return recorder.inSpan(SCOPE, name, work, attributes);
  try {
    return work();
  } catch (error) {
    // A span turns a synchronous throw into a rejection; so does its absence.
    return Promise.reject(error);
  }
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
