import { HttpException } from '../../../index.js';
import type { AuthenticatedToken } from './authenticated-token.js';
import { sessionStartOf } from './session-id.js';

/**
 * How long after signing in a person may list or end sessions, change their password or e-mail
 * address, or create an API key, by default: 10 minutes (`recentAuthSeconds` of `forRoot`). Past
 * it, such requests answer {@link REAUTHENTICATION_REQUIRED_TYPE} until the person signs in again
 * (ASVS 5.0 7.5.2: a stolen session that is not fresh cannot take the account over).
 *
 * @example
 * AuthModule.forRoot({ secret, issuing, recentAuthSeconds: DEFAULT_RECENT_AUTH_SECONDS });
 */
export const DEFAULT_RECENT_AUTH_SECONDS = 600;

/**
 * The problem `type` of the answer that asks for a fresh sign-in: stable, for clients to match
 * (with the `code` member `reauthentication_required`), whatever the message says.
 *
 * @example
 * if (problem.type === REAUTHENTICATION_REQUIRED_TYPE) location.assign('/sign-in?again=1');
 */
export const REAUTHENTICATION_REQUIRED_TYPE = 'urn:tessera-http:problem:reauthentication-required';

/**
 * What a refusal for a missing step says: its problem `type` and `code`, its message, and the
 * extra members of its body.
 */
export interface MissingStep {
  readonly type: string;
  readonly code: string;
  readonly detail: string;
  /** The challenge's `error_description`. */
  readonly description: string;
  readonly body: Readonly<Record<string, unknown>>;
}

/**
 * The one shape of every 401 that asks the person for a step (a sign-in again, a second factor):
 * RFC 9457 problem with the step's `type` and `code`, `maxAgeSeconds` in the body, and the RFC
 * 9470 challenge `WWW-Authenticate: Bearer error="insufficient_user_authentication",
 * error_description="...", max_age=<seconds>`. `requireRecentAuth` and `StepUpGuard` both answer
 * through it, each with its own problem type.
 *
 * @example
 * throw insufficientAuthentication({ type: REAUTHENTICATION_REQUIRED_TYPE, code: 'REAUTHENTICATION_REQUIRED', detail: 'Sign in again', description: 'A more recent authentication is required', body: {} }, 600);
 */
export function insufficientAuthentication(step: MissingStep, maxAgeSeconds: number): HttpException {
  return new HttpException(
    401,
    step.detail,
    { ...step.body, maxAgeSeconds },
    { 'www-authenticate': `Bearer error="insufficient_user_authentication", error_description="${step.description}", max_age=${maxAgeSeconds}` },
    { type: step.type, code: step.code },
  );
}

/**
 * The 401 that asks for a more recent sign-in: RFC 9457 problem with `type`
 * {@link REAUTHENTICATION_REQUIRED_TYPE}, `code: 'reauthentication_required'` and `maxAgeSeconds`,
 * and the RFC 9470 challenge `WWW-Authenticate: Bearer error="insufficient_user_authentication",
 * max_age=<seconds>`. Refreshing does not help (a refresh keeps the sign-in's time); signing in does.
 *
 * @example
 * throw reauthenticationRequired(600);
 */
export function reauthenticationRequired(maxAgeSeconds: number): HttpException {
  return insufficientAuthentication(
    {
      type: REAUTHENTICATION_REQUIRED_TYPE,
      code: 'REAUTHENTICATION_REQUIRED',
      detail: 'This needs a recent sign-in: sign in again, then retry.',
      description: 'A more recent authentication is required',
      body: { code: 'reauthentication_required' },
    },
    maxAgeSeconds,
  );
}

/**
 * Whether the person behind a verified token authenticated within the last `withinSeconds`: the
 * one answer to "when did this session authenticate" (`AuthenticatedToken.authenticatedAtMs`, see
 * {@link authenticatedAtOf}) that `requireRecentAuth`, the outside sign-in's linking and
 * `StepUpGuard`'s sign-in half all read. A token that does not say is never recent.
 *
 * @example
 * if (!authenticatedWithin(runtime.tokenFacts(claims), clock.now(), 600)) throw reauthenticationRequired(600);
 */
export function authenticatedWithin(facts: Pick<AuthenticatedToken, 'authenticatedAtMs'> | undefined, nowMs: number, withinSeconds: number): boolean {
  const at = facts?.authenticatedAtMs;
  return at !== undefined && nowMs - at <= withinSeconds * 1000;
}

/**
 * When the person behind a verified token authenticated (Unix ms), or undefined when the token
 * does not say (then no request needing a recent sign-in passes). The app's own tokens: the
 * start of their session, which is the sign-in (the `sid`, a UUID version 7 whose first 48 bits
 * are that time; a refresh keeps it). An identity provider's token: its OpenID Connect
 * `auth_time` claim (seconds), when it has one.
 *
 * @example
 * authenticatedAtOf({ sid: newSessionId(1_767_225_600_000) }, true); // 1767225600000
 * authenticatedAtOf({ auth_time: 1_767_225_600 }, false);           // 1767225600000
 */
export function authenticatedAtOf(payload: Readonly<Record<string, unknown>>, own: boolean): number | undefined {
  if (own) return sessionStartOf(payload.sid);
  const authTime = payload.auth_time;
  return typeof authTime === 'number' && Number.isFinite(authTime) && authTime > 0 ? authTime * 1000 : undefined;
}
