import { context } from '@opentelemetry/api';
import type { Logger } from '../../index.js';
import { LIBRARY_TELEMETRY_KEY, type LibraryTelemetry, type TelemetryCounter } from '../../internal/telemetry.js';
import type { SecurityEvent, SecurityEventSink } from './security-event.js';

const SECURITY_EVENTS_COUNTER: TelemetryCounter = {
  scope: 'tessera-http/auth',
  name: 'tessera.auth.security_events',
  description: 'Security events of the auth module (sign-ins, throttles, refresh-token reuse, sessions revoked, account changes, API keys, refused access, second factors, outside sign-ins and identities), by event.',
  unit: '{event}',
};

/** Events that call for a look: a stolen refresh token, a guessing attack being throttled, a refused second factor (a stolen password), a refused outside sign-in. */
const WARNINGS: ReadonlySet<SecurityEvent['type']> = new Set(['refresh-token.reused', 'sign-in.throttled', 'second-factor.failed', 'outside-sign-in.failed']);

/**
 * The one emitter of the auth module's security events: each {@link SecurityEvent} is one JSON
 * log line through the app's logger (`{"level":"info","msg":"security event auth.sign-in.failed",
 * "event":"auth.sign-in.failed","securityEvent":true,...fields}`; refresh-token reuse,
 * throttling and a failed CSRF check at warn) and one count on the app's telemetry (`tessera.auth.security_events`,
 * attribute `event`), when the request is followed. A logger that throws does not fail the act
 * the event tells of.
 *
 * @example
 * const events = new SecurityEvents(logger);
 * events.record({ type: 'account.disabled', subject: 'u_1' });
 */
export class SecurityEvents implements SecurityEventSink {
  readonly #logger: Logger;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  record(event: SecurityEvent): void {
    const name = `auth.${event.type}`;
    const { type: _type, ...fields } = event;
    try {
      const line = { event: name, securityEvent: true, ...withoutUndefined(fields) };
      // A failed CSRF check is a page of another origin acting with the person's cookies.
      if (WARNINGS.has(event.type) || (event.type === 'access.refused' && event.reason === 'csrf')) this.#logger.warn(line, `security event ${name}`);
      else this.#logger.info(line, `security event ${name}`);
    } catch {
      // The event is told on the telemetry below; the sign-in or sign-out it tells of stands.
    }
    const telemetry = context.active().getValue(LIBRARY_TELEMETRY_KEY) as LibraryTelemetry | undefined;
    telemetry?.count(SECURITY_EVENTS_COUNTER, { event: name });
  }
}

function withoutUndefined(fields: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(fields)) if (value !== undefined) out[key] = value;
  return out;
}
