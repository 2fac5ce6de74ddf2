// Public surface of security events: the event type, the sink the module records through, and
// the emitter on the app's logger and telemetry.
export { SecurityEvents } from './security-events.js';
export { NO_SECURITY_EVENTS } from './security-event.js';
export type { SecurityEvent, SecurityEventSink, SessionRevocationReason, SecondFactorPurpose, OutsideSignInFailure } from './security-event.js';
