import { isHttpException, type RequestContext } from '../../index.js';
import type { AccessRefusalReason, SecurityEventSink } from './security-event.js';

/** Who was refused: the subject of a token, or the id of an API key. */
export interface RefusedCaller {
  readonly subject?: string | undefined;
  readonly keyId?: string | undefined;
}

/**
 * Runs a guard's check of an authenticated caller; when it refuses (a 401 or 403 it throws), records
 * one `access.refused` security event (ASVS 5.0 16.3.2) with the reason, the caller, the route and
 * the client address, then lets the refusal through unchanged. Failed authentication (a bad token)
 * is not recorded here: it says nothing about who was refused, and anyone can cause it in bulk.
 *
 * @example
 * checkRecordingRefusal(runtime.securityEvents, ctx, 'role', { subject }, () => requireOneOf(claims, roles));
 */
export function checkRecordingRefusal(events: SecurityEventSink, ctx: RequestContext, reason: AccessRefusalReason, caller: RefusedCaller | (() => RefusedCaller), check: () => void): void {
  try {
    check();
  } catch (error) {
    if (isHttpException(error) && (error.status === 401 || error.status === 403)) {
      // Read only on a refusal: the request that passes pays for nothing but the call.
      const { subject, keyId } = typeof caller === 'function' ? caller() : caller;
      events.record({
        type: 'access.refused',
        reason,
        subject,
        keyId,
        route: ctx.route === undefined ? undefined : `${ctx.route.method} ${ctx.route.path}`,
        clientAddress: ctx.clientAddress,
      });
    }
    throw error;
  }
}
