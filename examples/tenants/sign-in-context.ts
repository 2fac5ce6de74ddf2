import { createToken, type RequestContext } from '../../lib/index.js';
import type { SignInContext } from '../../lib/auth/index.js';

/** Reads what a sign-in knows about its caller from the request. */
export type SignInContextReader = (ctx: Pick<RequestContext, 'clientAddress' | 'header'>) => SignInContext;

/** The tenants app's {@link SignInContextReader}. */
export const SIGN_IN_CONTEXT = createToken<SignInContextReader>('SignInContextReader');

/**
 * The client address as the app's one proxy rule decided it (`ctx.clientAddress`, from
 * `createApp`'s `clientAddress`, which main.ts builds from `TRUSTED_PROXY_HOPS`: the same address
 * the API keys' `allowedCidrs` are checked against, never a raw `X-Forwarded-For`) and the
 * User-Agent: what sign-in throttling counts per address and the session list shows.
 *
 * @example
 * const read = signInContextReader();
 * await service.signIn(identifier, password, read(ctx));
 */
export function signInContextReader(): SignInContextReader {
  return (ctx) => ({ clientAddress: ctx.clientAddress, userAgent: ctx.header('user-agent') ?? undefined });
}
