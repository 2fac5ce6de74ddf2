import { z } from 'zod';
import { defineController, post } from '../../lib/index.js';
import { Public, type BrowserSessions } from '../../lib/auth/index.js';
import { ApiResponse, ApiTags } from '../../lib/openapi/index.js';
import { auth } from './claims.js';
import { PUBLIC_OPERATION } from './openapi.js';

const SignIn = z.object({ identifier: z.string().min(1).max(320), password: z.string().min(1).max(1024) });

const CROSS_SITE = ApiResponse({ status: 403, description: 'Another site started the request, or the CSRF token is missing or wrong' });

/**
 * Sign-in, refresh and sign-out for the app's own pages: the tokens travel in `__Host-` cookies
 * (HttpOnly, Secure, SameSite=Strict) the page's scripts never see; the body answers when they
 * expire and the CSRF token the page echoes in `X-CSRF-Token` on every unsafe request. Public:
 * each checks the request's origin itself (and refresh and sign-out the CSRF token).
 */
export const browserAuthController = defineController({
  name: 'BrowserAuthController',
  prefix: '/auth/browser',
  inject: [auth.BROWSER_SESSIONS],
  metadata: [Public(), PUBLIC_OPERATION, ApiTags('Auth'), CROSS_SITE],
  routes: (browser: BrowserSessions) => ({
    signIn: post('/sign-in', { body: SignIn, metadata: [ApiResponse({ status: 401, description: 'Invalid credentials' })] }, (ctx) => browser.signIn(ctx, ctx.body.identifier, ctx.body.password)),
    refresh: post('/refresh', { metadata: [ApiResponse({ status: 401, description: 'No usable session cookie' })] }, (ctx) => browser.refresh(ctx)),
    signOut: post('/sign-out', { metadata: [ApiResponse({ status: 204, description: 'Signed out; the cookies are deleted' })] }, (ctx) => browser.signOut(ctx)),
  }),
});
