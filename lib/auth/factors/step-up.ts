import { createMetadataKey, ForbiddenException, HttpException, readRouteMetadata, UnauthorizedException, type Clock, type Guard, type MetadataEntry, type MetadataKey, type RequestContext, type StateKey } from '../../index.js';
import type { AuthenticatedApiKey } from '../credentials/api-keys/index.js';
import type { AuthenticatedToken } from '../sessions/state/authenticated-token.js';
import { authenticatedWithin, insufficientAuthentication } from '../sessions/state/recent-auth.js';
import type { SecondFactorService } from './second-factor-service.js';
/** Problem `type` when the session must pass a second factor again (POST the factor to the step-up route). @example if (problem.type === STEP_UP_SECOND_FACTOR_TYPE) await stepUp(); */
export const STEP_UP_SECOND_FACTOR_TYPE = 'urn:tessera:auth:step-up-second-factor';
/** Problem `type` when the person must sign in again (an account without a second factor, its sign-in too old). @example if (problem.type === STEP_UP_SIGN_IN_TYPE) location.assign('/sign-in'); */
export const STEP_UP_SIGN_IN_TYPE = 'urn:tessera:auth:step-up-sign-in';
/** Problem `type` when the route needs a second factor and the account has none yet: enrol one. @example if (problem.type === STEP_UP_ENROLMENT_TYPE) location.assign('/settings/factors'); */
export const STEP_UP_ENROLMENT_TYPE = 'urn:tessera:auth:step-up-enrolment';

/**
 * A route's step-up rule (see {@link RequireStepUp}).
 *
 * @example
 * const rule: StepUpRule = { withinSeconds: 300, secondFactor: 'required' };
 */
export interface StepUpRule {
  /** How recent the second factor (or, for an account without one, the sign-in) must be. Default: `secondFactors.stepUpSeconds` (300). */
  readonly withinSeconds?: number;
  /**
   * `'if-enabled'` (default): a person with a second factor passes it again; a person without
   * one signs in again. `'required'`: a person without one must enrol one first (403).
   */
  readonly secondFactor?: 'if-enabled' | 'required';
}

/** The step-up rule of a route, read by `StepUpGuard`. */
export const STEP_UP_RULE: MetadataKey<StepUpRule> = createMetadataKey<StepUpRule>('auth:step-up');

/**
 * Sets the step-up rule of a route or controller that lists `StepUpGuard` (a route's own rule
 * wins). Without it the guard applies the module's defaults.
 *
 * @example
 * post('/api-keys', { guards: [auth.StepUpGuard], metadata: [RequireStepUp({ withinSeconds: 300 })] }, handler);
 */
export function RequireStepUp(rule: StepUpRule = {}): MetadataEntry<StepUpRule> {
  const seconds = rule.withinSeconds;
  if (seconds !== undefined && !(Number.isInteger(seconds) && seconds > 0)) throw new TypeError('RequireStepUp: withinSeconds must be a positive whole number of seconds');
  if (rule.secondFactor !== undefined && rule.secondFactor !== 'if-enabled' && rule.secondFactor !== 'required') throw new TypeError("RequireStepUp: secondFactor is 'if-enabled' or 'required'");
  return STEP_UP_RULE.with(Object.freeze({ ...rule }));
}

/**
 * The refusal that says which step is missing, in the one shape of such refusals
 * (`insufficientAuthentication`): 401 with `type` and `code` naming it, `step` (`second-factor`
 * or `sign-in`), `maxAgeSeconds`, and the RFC 9470 challenge
 * `WWW-Authenticate: Bearer error="insufficient_user_authentication", max_age=...`.
 */
function stepUpRequired(step: 'second-factor' | 'sign-in', maxAgeSeconds: number): HttpException {
  const type = step === 'second-factor' ? STEP_UP_SECOND_FACTOR_TYPE : STEP_UP_SIGN_IN_TYPE;
  const code = step === 'second-factor' ? 'STEP_UP_SECOND_FACTOR' : 'STEP_UP_SIGN_IN';
  const detail = step === 'second-factor' ? 'Confirm with a second factor to continue' : 'Sign in again to continue';
  return insufficientAuthentication({ type, code, detail, description: detail, body: { code, step } }, maxAgeSeconds);
}

/** The state keys a step-up guard reads (those of one auth module). */
export interface StepUpStateKeys {
  readonly currentUser: StateKey<unknown>;
  readonly currentApiKey: StateKey<AuthenticatedApiKey>;
}

/** What one app's step-up guard runs with: its default window and clock, and what the runtime recorded of each verified token. */
export interface StepUpSettings {
  readonly defaultSeconds: number;
  readonly clock: Clock;
  /** The auth runtime's record of the verified token behind these claims (`AuthRuntime.tokenFacts`). */
  readonly tokenFacts: (claims: unknown) => AuthenticatedToken | undefined;
}

/**
 * The step-up guard class of one auth module: list it after the authenticating guard (or rely
 * on `protectAllRoutes`), with `RequireStepUp(...)` to set the window. For the signed-in session
 * (the access token's `sid`):
 * - a person with a second factor passes when the session passed one (sign-in's second step or a
 *   step-up) within the window; else 401 `urn:tessera:auth:step-up-second-factor`;
 * - a person without one passes when the session's sign-in is that recent; else 401
 *   `urn:tessera:auth:step-up-sign-in` (or, with `secondFactor: 'required'`, 403
 *   `urn:tessera:auth:step-up-enrolment`);
 * - an API key, or a token without a session (an outside issuer's), cannot step up: 403.
 *
 * @example
 * const StepUpGuard = createStepUpGuard(keys); // the auth module's `StepUpGuard`
 */
export function createStepUpGuard(keys: StepUpStateKeys): new (factors: SecondFactorService, settings: StepUpSettings) => Guard {
  return class StepUpGuard implements Guard {
    constructor(
      readonly factors: SecondFactorService,
      readonly settings: StepUpSettings,
    ) {}

    async canActivate(ctx: RequestContext): Promise<boolean> {
      const settings = this.settings;
      const user = ctx.get(keys.currentUser);
      if (user === undefined) throw new UnauthorizedException('Authentication required', undefined, { 'www-authenticate': 'Bearer' });
      if (ctx.get(keys.currentApiKey) !== undefined) throw new ForbiddenException('This action needs a signed-in person, not an API key', { code: 'STEP_UP_NOT_POSSIBLE' });
      // What the runtime recorded when it verified the token, by the rule every guard shares: only
      // the app's own session tokens name a local account and a session that can step up (a
      // provider's token may carry a `sid` of its own; it is not ours).
      const facts = settings.tokenFacts(user);
      if (facts === undefined || !facts.own || facts.subject === undefined || facts.sessionId === undefined) throw new ForbiddenException('This action needs a session of this app', { code: 'STEP_UP_NOT_POSSIBLE' });
      const rule = (ctx.route === undefined ? undefined : readRouteMetadata(ctx.route, STEP_UP_RULE)) ?? {};
      const seconds = rule.withinSeconds ?? settings.defaultSeconds;
      const now = settings.clock.now();
      if (await this.factors.required(facts.subject)) {
        const verifiedAt = await this.factors.sessionVerifiedAt(facts.sessionId);
        if (verifiedAt !== undefined && authenticatedWithin({ authenticatedAtMs: verifiedAt.getTime() }, now, seconds)) return true;
        throw stepUpRequired('second-factor', seconds);
      }
      if (rule.secondFactor === 'required') {
        throw new HttpException(403, 'This action needs a second factor: enrol one first', { code: 'STEP_UP_ENROLMENT', step: 'enrol' }, undefined, { type: STEP_UP_ENROLMENT_TYPE, code: 'STEP_UP_ENROLMENT' });
      }
      // The sign-in half: the same answer to "when did this session authenticate" as requireRecentAuth.
      if (authenticatedWithin(facts, now, seconds)) return true;
      throw stepUpRequired('sign-in', seconds);
    }
  };
}
