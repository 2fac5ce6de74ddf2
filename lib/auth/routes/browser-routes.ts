import { defineController, post } from '../../index.js';
import { ACCESS_PUBLIC } from '../../internal/access-rules.js';
import type { BrowserSessions } from '../sessions/browser/browser-sessions.js';
import type { AuthRouteParts } from './auth-route-parts.js';
import { answers, AUTH_TAG, BAD_REQUEST, CROSS_SITE, summary, THROTTLED, TOO_LARGE } from './route-docs.js';
import { BrowserSessionAnswer, PASSWORD_BODY_LIMIT, SignInBody, SMALL_BODY_LIMIT } from './route-schemas.js';

/**
 * `routes.browser`: sign-in, refresh and sign-out for the app's own pages, under
 * `<prefix>/browser`. The tokens travel in `__Host-` cookies the page's scripts never see; the body
 * says when they expire and gives the CSRF token to echo in `X-CSRF-Token`. Public: each checks the
 * request's origin itself (refresh and sign-out also the CSRF token); `BrowserSessions` marks its
 * answers `no-store`.
 *
 * @example
 * defineModule({ name: 'Auth', controllers: [browserRoutes(parts)] });
 */
export function browserRoutes<Claims>(parts: AuthRouteParts<Claims>) {
  return defineController({
    name: 'BrowserAuthController',
    prefix: `${parts.prefix}/browser`,
    inject: [parts.browserSessions],
    metadata: [ACCESS_PUBLIC.with(true), AUTH_TAG, CROSS_SITE, TOO_LARGE],
    routes: (browser: BrowserSessions) => ({
      signIn: post(
        '/sign-in',
        { body: SignInBody, bodyLimit: PASSWORD_BODY_LIMIT, metadata: [summary('Sign in a browser: the session in HttpOnly cookies'), answers({ status: 200, description: 'Signed in; the cookies are set', schema: BrowserSessionAnswer }), BAD_REQUEST(), answers({ status: 401, description: 'Invalid credentials' }), THROTTLED] },
        (ctx) => browser.signIn(ctx, ctx.body.identifier, ctx.body.password),
      ),
      refresh: post(
        '/refresh',
        { bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Rotate the session in the cookies'), answers({ status: 200, description: 'New cookies', schema: BrowserSessionAnswer }), answers({ status: 401, description: 'No usable session cookie' })] },
        (ctx) => browser.refresh(ctx),
      ),
      signOut: post(
        '/sign-out',
        { bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Sign the browser out'), answers({ status: 204, description: 'Signed out; the cookies are deleted' })] },
        (ctx) => browser.signOut(ctx),
      ),
    }),
  });
}
