import { z } from 'zod';
import { defineController, del, get, NotFoundException, post } from '../../lib/index.js';
import { NoStore, Public, type AuthService, type BrowserSessions, type SessionInfo, type TokenPair } from '../../lib/auth/index.js';
import { ApiResponse } from '../../lib/openapi/index.js';
import { auth } from './claims.js';
import { ApiTags } from '../../lib/openapi/index.js';
import { NOT_FOUND, PUBLIC_OPERATION, TOKEN_ONLY, UNAUTHORIZED } from './openapi.js';
import { SIGN_IN_CONTEXT, type SignInContextReader } from './sign-in-context.js';

const SignIn = z.object({ identifier: z.string().min(1).max(320), password: z.string().min(1).max(1024) });
const RefreshBody = z.object({ refreshToken: z.string().min(1).max(8192) });

/** TokenPair with its dates as ISO strings, as the HTTP API returns it. */
function toJson(pair: TokenPair) {
  return {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    accessTokenExpiresAt: pair.accessTokenExpiresAt.toISOString(),
    refreshTokenExpiresAt: pair.refreshTokenExpiresAt.toISOString(),
  };
}

/** Sign-in, refresh and sign-out over HTTP. Public: they are how a caller gets a credential. */
export const authController = defineController({
  name: 'AuthController',
  prefix: '/auth',
  inject: [auth.AUTH_SERVICE, SIGN_IN_CONTEXT],
  metadata: [Public(), PUBLIC_OPERATION],
  routes: (service: AuthService, context: SignInContextReader) => ({
    // NoStore: the answers carry tokens, which no cache may keep (Cache-Control: no-store).
    signIn: post('/sign-in', { body: SignIn, interceptors: [NoStore] }, async (ctx) => toJson(await service.signIn(ctx.body.identifier, ctx.body.password, context(ctx)))),
    refresh: post('/refresh', { body: RefreshBody, interceptors: [NoStore] }, async (ctx) => toJson(await service.refresh(ctx.body.refreshToken))),
    signOut: post('/sign-out', { body: RefreshBody }, async (ctx) => {
      await service.signOut(ctx.body.refreshToken);
    }),
  }),
});

/** A session as the API shows it: dates as ISO strings, and whether it is the caller's own. */
function sessionToJson(session: SessionInfo, ownSessionId: string | undefined) {
  return {
    id: session.id,
    current: session.id === ownSessionId,
    startedAt: session.startedAt.toISOString(),
    lastUsedAt: session.lastUsedAt.toISOString(),
    userAgent: session.userAgent,
    clientAddress: session.clientAddress,
  };
}

/**
 * A person's sessions (one per sign-in, on each device): list them, end one, or end them all.
 *
 * "Sign out everywhere": ends every session of the signed-in person, on every instance (their
 * access tokens are refused at once, not when they expire). Bearer tokens only: an API key is not
 * a session. When the bus cannot tell the other instances the answer is an error (the refresh
 * tokens are revoked and this instance refuses the access tokens; calling again is safe).
 */
export const sessionsController = defineController({
  name: 'SessionsController',
  prefix: '/auth',
  inject: [auth.AUTH_SERVICE, auth.BROWSER_SESSIONS],
  metadata: [ApiTags('Auth'), TOKEN_ONLY, UNAUTHORIZED],
  routes: (service: AuthService, browser: BrowserSessions) => ({
    list: get('/sessions', { guards: [auth.JwtAuthGuard] }, async (ctx) => {
      const own = browser.sessionIdOf(ctx);
      return (await service.listSessions(auth.getCurrentUser(ctx)?.sub as string)).map((session) => sessionToJson(session, own));
    }),
    // Another person's session id answers exactly as an unknown one: 404.
    end: del('/sessions/:id', { guards: [auth.JwtAuthGuard], metadata: [ApiResponse({ status: 204, description: 'Ended: its tokens are refused and its sockets closed, on every instance' }), NOT_FOUND] }, async (ctx) => {
      if (!(await service.revokeSession(auth.getCurrentUser(ctx)?.sub as string, ctx.params.id))) throw new NotFoundException('No such session');
    }),
    signOutEverywhere: del('/sessions', { guards: [auth.JwtAuthGuard] }, async (ctx) => {
      await service.revokeAllSessions(auth.getCurrentUser(ctx)?.sub as string);
    }),
  }),
});
