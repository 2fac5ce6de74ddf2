import { defineController, del, get, NotFoundException } from '../../index.js';
import { z } from 'zod';
import type { AuthRouteParts, RouteSessionService } from './auth-route-parts.js';
import { ownSessionOf, type CallerReader } from './own-session.js';
import { answers, AUTH_TAG, personSecurity, summary, UNAUTHORIZED } from './route-docs.js';
import { SessionAnswer, sessionJson } from './route-schemas.js';

const ENDED = (what: string) => answers({ status: 204, description: `${what}: their tokens are refused and their sockets closed, on every instance` });
const FORBIDDEN = answers({ status: 403, description: 'An API key or an identity provider\u2019s token; or a cookie request without its CSRF token' });

/**
 * `routes.sessions`: a person's sessions (one per sign-in, on each device). List them, end one,
 * end every other ("sign out my other devices"), or end all ("sign out everywhere", this one too).
 * A person's own session only (a token or the browser session; never an API key or an identity
 * provider's token), signed in recently (`recentAuthSeconds`): a stolen session that is not fresh
 * can neither see where its owner is signed in nor sign them out. Another person's session id
 * answers exactly as an unknown one: 404. When the bus cannot tell the other instances, ending
 * answers an error (the sessions are ended in the store and on this instance; calling again is safe).
 *
 * @example
 * defineModule({ name: 'Auth', controllers: [sessionRoutes(parts)] });
 */
export function sessionRoutes<Claims>(parts: AuthRouteParts<Claims>) {
  return defineController({
    name: 'SessionsController',
    prefix: `${parts.prefix}/sessions`,
    inject: [parts.sessions, parts.runtime],
    guards: [parts.personGuard, parts.recentAuthGuard],
    metadata: [AUTH_TAG, UNAUTHORIZED, FORBIDDEN, ...personSecurity(parts.personSchemes)],
    routes: (service: RouteSessionService, runtime: CallerReader['runtime']) => {
      const caller: CallerReader = { currentUser: parts.currentUser, runtime };
      return {
        list: get('/', { metadata: [summary('The sessions of the signed-in person, oldest first'), answers({ status: 200, description: 'Each session, `current` marking this one', schema: z.array(SessionAnswer) })] }, async (ctx) => {
          const { subject, sessionId } = ownSessionOf(ctx, caller);
          return (await service.listSessions(subject)).map((session) => sessionJson(session, sessionId));
        }),
        // Before '/:id': a static segment; and no session id (a UUID) is 'others'.
        endOthers: del('/others', { metadata: [summary('End every session but this one'), ENDED('Ended')] }, async (ctx) => {
          const { subject, sessionId } = ownSessionOf(ctx, caller);
          // Without a session of its own (an own token always has one) nothing is kept: all end.
          if (sessionId === undefined) await service.revokeAllSessions(subject);
          else await service.revokeOtherSessions(subject, sessionId);
        }),
        end: del('/:id', { metadata: [summary('End one session'), ENDED('Ended'), answers({ status: 404, description: 'No such session of this person' })] }, async (ctx) => {
          const { subject } = ownSessionOf(ctx, caller);
          if (!(await service.revokeSession(subject, ctx.params.id))) throw new NotFoundException('No such session');
        }),
        endAll: del('/', { metadata: [summary('Sign out everywhere: end every session, this one too'), ENDED('Ended')] }, async (ctx) => {
          await service.revokeAllSessions(ownSessionOf(ctx, caller).subject);
        }),
      };
    },
  });
}
