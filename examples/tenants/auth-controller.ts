import { z } from 'zod';
import { defineController, del, post } from '../../lib/index.js';
import { Public, type AuthService, type TokenPair } from '../../lib/auth/index.js';
import { auth } from './claims.js';
import { ApiTags } from '../../lib/openapi/index.js';
import { PUBLIC_OPERATION, TOKEN_ONLY, UNAUTHORIZED } from './openapi.js';

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
  inject: [auth.AUTH_SERVICE],
  metadata: [Public(), PUBLIC_OPERATION],
  routes: (service: AuthService) => ({
    signIn: post('/sign-in', { body: SignIn }, async (ctx) => toJson(await service.signIn(ctx.body.identifier, ctx.body.password))),
    refresh: post('/refresh', { body: RefreshBody }, async (ctx) => toJson(await service.refresh(ctx.body.refreshToken))),
    signOut: post('/sign-out', { body: RefreshBody }, async (ctx) => {
      await service.signOut(ctx.body.refreshToken);
    }),
  }),
});

/**
 * "Sign out everywhere": ends every session of the signed-in person, on every instance (their
 * access tokens are refused at once, not when they expire). Bearer tokens only: an API key is not
 * a session. When the bus cannot tell the other instances the answer is an error (the refresh
 * tokens are revoked and this instance refuses the access tokens; calling again is safe).
 */
export const sessionsController = defineController({
  name: 'SessionsController',
  prefix: '/auth',
  inject: [auth.AUTH_SERVICE],
  metadata: [ApiTags('Auth'), TOKEN_ONLY, UNAUTHORIZED],
  routes: (service: AuthService) => ({
    signOutEverywhere: del('/sessions', { guards: [auth.JwtAuthGuard] }, async (ctx) => {
      await service.revokeAllSessions(auth.getCurrentUser(ctx)?.sub as string);
    }),
  }),
});
