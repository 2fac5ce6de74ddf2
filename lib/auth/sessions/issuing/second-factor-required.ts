import { HttpException, problemAnswer } from '../../../index.js';
import type { SecondFactorStep } from './second-factor-gate.js';

/** The problem `type` of a sign-in that waits for its second factor. @example if (problem.type === SECOND_FACTOR_REQUIRED_TYPE) askForCode(problem.pendingToken); */
export const SECOND_FACTOR_REQUIRED_TYPE = 'urn:tessera:auth:second-factor-required';
/** The problem `code` of a sign-in that waits for its second factor. @example problem.code === SECOND_FACTOR_REQUIRED_CODE; */
export const SECOND_FACTOR_REQUIRED_CODE = 'SECOND_FACTOR_REQUIRED';

/**
 * Thrown by the one-step `signIn` and `issueTokens` for a subject with a second factor: they
 * cannot answer a second step, so they start no session (fail closed). 401 with
 * `type: urn:tessera:auth:second-factor-required`; it carries no pending token (exceptions
 * carry no tokens): use `beginSignIn` / `beginSession`, whose answer does.
 *
 * @example
 * if (isHttpException(err) && err.code === SECOND_FACTOR_REQUIRED_CODE) { ... }
 */
export class SecondFactorRequiredException extends HttpException {
  constructor() {
    super(401, 'This account signs in with a second factor: use the two-step sign-in', { code: SECOND_FACTOR_REQUIRED_CODE }, undefined, { type: SECOND_FACTOR_REQUIRED_TYPE, code: SECOND_FACTOR_REQUIRED_CODE });
  }
}

/**
 * The answer of a sign-in route whose password passed for an account with a second factor:
 * 401 problem+json, `type: urn:tessera:auth:second-factor-required`, `code`, and the
 * `pendingToken` to send back with the factor, its `expiresAt` and the `factors` accepted. No
 * session cookie or token is issued; `Cache-Control: no-store` because it carries the token. A
 * web `Response`, so a typed client's success type stays the token pair.
 *
 * @example
 * if (step.kind === 'second-factor') return secondFactorRequiredAnswer(step.step);
 */
export function secondFactorRequiredAnswer(step: SecondFactorStep): Response {
  const answer = problemAnswer(
    401,
    'A second factor is required to finish signing in',
    { code: SECOND_FACTOR_REQUIRED_CODE, pendingToken: step.pendingToken, expiresAt: step.expiresAt.toISOString(), factors: [...step.factors] },
    { 'cache-control': 'no-store' },
    SECOND_FACTOR_REQUIRED_TYPE,
  );
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}
