import { z } from 'zod';
import { defineController, del, get, post, UnsupportedMediaTypeException, type ClassToken, type ControllerDefinition, type Guard, type RequestContext, type Token } from '../../index.js';
import { ACCESS_PUBLIC } from '../../internal/access-rules.js';
import { getAccountId } from './principal.js';
import type { OutsideSignIn } from './outside-sign-in.js';

/** A `form_post` callback carries a code, a state and at most a few more fields: 16 KiB is plenty. */
const CALLBACK_BODY_LIMIT = 16 * 1024;

/** `Public()`, from the core's key: the routes a caller uses to get a credential need none. */
const PUBLIC = ACCESS_PUBLIC.with(true);

const StartQuery = z.object({ returnTo: z.string().max(2048).optional() }).passthrough();

/** The callback's parameters: the query of a GET, the urlencoded body of a `form_post`. */
async function callbackParameters(ctx: RequestContext): Promise<URLSearchParams> {
  if (ctx.method === 'GET') return new URL(ctx.request.url).searchParams;
  const type = (ctx.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded') throw new UnsupportedMediaTypeException('A form_post callback is application/x-www-form-urlencoded');
  return new URLSearchParams(await ctx.request.text());
}

/**
 * The outside sign-in routes the auth module mounts when `outsideSignIn` is configured:
 *
 * - `GET /auth/oidc/:provider` (public): 303 to the provider; `?returnTo=/path` names the page after.
 * - `GET|POST /auth/oidc/:provider/callback` (public): the provider's answer (query or `form_post`).
 * - `POST /auth/oidc/:provider/link` (own session, recent authentication): 303 to the provider, to link it.
 * - `GET /auth/identities` (own session): the linked identities.
 * - `DELETE /auth/identities/:provider` (own session, recent authentication): unlink; never the last way in.
 *
 * @example
 * defineModule({ controllers: [outsideSignInController(OUTSIDE_SIGN_IN, AccountGuard)] });
 */
export function outsideSignInController(service: Token<OutsideSignIn>, accountGuard: ClassToken<Guard>): ControllerDefinition {
  return defineController({
    name: 'OutsideSignInController',
    prefix: '/auth',
    inject: [service],
    routes: (signIn: OutsideSignIn) => ({
      start: get('/oidc/:provider', { query: StartQuery, metadata: [PUBLIC] }, (ctx) => signIn.start(ctx, ctx.params.provider, ctx.query.returnTo)),
      callback: get('/oidc/:provider/callback', { metadata: [PUBLIC] }, async (ctx) => signIn.callback(ctx, ctx.params.provider, await callbackParameters(ctx))),
      formPostCallback: post('/oidc/:provider/callback', { metadata: [PUBLIC], bodyLimit: CALLBACK_BODY_LIMIT }, async (ctx) => signIn.callback(ctx, ctx.params.provider, await callbackParameters(ctx))),
      link: post('/oidc/:provider/link', { query: StartQuery, guards: [accountGuard] }, (ctx) => signIn.startLink(ctx, ctx.params.provider, getAccountId(ctx) as string, ctx.query.returnTo)),
      identities: get('/identities', { guards: [accountGuard] }, async (ctx) =>
        (await signIn.identitiesOf(getAccountId(ctx) as string)).map((identity) => ({ provider: identity.provider, email: identity.email ?? null, linkedAt: identity.linkedAt.toISOString() })),
      ),
      unlink: del('/identities/:provider', { guards: [accountGuard] }, async (ctx) => {
        await signIn.unlink(ctx, getAccountId(ctx) as string, ctx.params.provider);
      }),
    }),
  });
}
