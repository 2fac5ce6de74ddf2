import { ForbiddenException, UnauthorizedException, type RequestContext, type StateKey } from '../../index.js';
import type { AuthenticatedToken } from '../sessions/state/authenticated-token.js';

/**
 * Reads what the guards recorded of the caller: the app's own session only (an API key or an
 * identity provider's token is refused with 403: its subject names no local account's sessions).
 */
export interface CallerReader {
  readonly currentUser: StateKey<unknown>;
  readonly runtime: { tokenFacts(claims: never): AuthenticatedToken | undefined };
}

/**
 * The signed-in person behind the request, on one of the app's own sessions.
 *
 * @throws UnauthorizedException when no guard authenticated the request (fail closed).
 * @throws ForbiddenException for an API key or an identity provider's token.
 * @example
 * const { subject, sessionId } = ownSessionOf(ctx, caller);
 */
export function ownSessionOf(ctx: Pick<RequestContext, 'get'>, caller: CallerReader): { readonly subject: string; readonly sessionId: string | undefined } {
  const claims = ctx.get(caller.currentUser);
  if (claims === undefined) throw new UnauthorizedException('Authentication required', undefined, { 'www-authenticate': 'Bearer' });
  const token = caller.runtime.tokenFacts(claims as never);
  if (token?.own !== true || token.subject === undefined) throw new ForbiddenException('Only a session of this app can do this');
  return { subject: token.subject, sessionId: token.sessionId };
}
