import { defineController, post, type RequestContext } from '../../index.js';
import { ACCESS_PUBLIC } from '../../internal/access-rules.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import { secondFactorRequiredAnswer } from '../sessions/issuing/second-factor-required.js';
import type { AuthRouteParts, RouteSessionService } from './auth-route-parts.js';
import { answers, AUTH_TAG, BAD_REQUEST, summary, THROTTLED, TOO_LARGE } from './route-docs.js';
import { PASSWORD_BODY_LIMIT, RefreshBody, SignInBody, SMALL_BODY_LIMIT, TokenPairAnswer, tokenPairJson } from './route-schemas.js';

/**
 * What a sign-in knows of its caller: `ctx.clientAddress` (the app's one proxy rule, never
 * `X-Forwarded-For` as sent), for throttling per address and the session list, and the User-Agent.
 *
 * @example
 * await service.signIn(identifier, password, signInContextOf(ctx));
 */
export function signInContextOf(ctx: Pick<RequestContext, 'clientAddress' | 'header'>): SignInContext {
  return { clientAddress: ctx.clientAddress, userAgent: ctx.header('user-agent') ?? undefined };
}

const INVALID_CREDENTIALS = answers({ status: 401, description: 'Invalid credentials (the same answer for every reason)' });

/**
 * `routes.json`: sign-in, refresh and sign-out with the tokens in JSON bodies. Public (they are
 * how a caller gets a credential); the token answers are `Cache-Control: no-store`; sign-in is
 * throttled by the sign-in throttle (429).
 *
 * @example
 * defineModule({ name: 'Auth', controllers: [tokenRoutes(parts)] });
 */
export function tokenRoutes<Claims>(parts: AuthRouteParts<Claims>) {
  return defineController({
    name: 'AuthController',
    prefix: parts.prefix,
    inject: [parts.sessions],
    metadata: [ACCESS_PUBLIC.with(true), AUTH_TAG, TOO_LARGE],
    routes: (service: RouteSessionService) => ({
      signIn: post(
        '/sign-in',
        { body: SignInBody, bodyLimit: PASSWORD_BODY_LIMIT, interceptors: [parts.noStore], metadata: [summary('Sign in: an access token and a refresh token'), answers({ status: 200, description: 'A new session', schema: TokenPairAnswer }), BAD_REQUEST(), INVALID_CREDENTIALS, THROTTLED] },
        // The one gate of second factors: a person with one gets the second step (a 401 problem
        // with the pending token), never a session from the password alone.
        async (ctx) => {
          const step = await service.beginSignIn(ctx.body.identifier, ctx.body.password, signInContextOf(ctx));
          return step.kind === 'session' ? tokenPairJson(step.pair) : secondFactorRequiredAnswer(step.step);
        },
      ),
      refresh: post(
        '/refresh',
        { body: RefreshBody, bodyLimit: SMALL_BODY_LIMIT, interceptors: [parts.noStore], metadata: [summary('Rotate a refresh token: a new pair, the old token spent', 'Presenting a token already rotated ends its whole session (reuse detection).'), answers({ status: 200, description: 'The next pair', schema: TokenPairAnswer }), BAD_REQUEST(), INVALID_CREDENTIALS] },
        async (ctx) => tokenPairJson(await service.refresh(ctx.body.refreshToken)),
      ),
      signOut: post(
        '/sign-out',
        { body: RefreshBody, bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Sign out: end the session of a refresh token'), answers({ status: 204, description: 'Ended (also for a token already ended): its access tokens are refused on every instance' }), BAD_REQUEST()] },
        async (ctx) => {
          await service.signOut(ctx.body.refreshToken);
        },
      ),
    }),
  });
}
