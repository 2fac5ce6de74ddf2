import { createToken, type RequestContext } from '../../lib/index.js';
import { createClientAddressReader, type SignInContext } from '../../lib/auth/index.js';

/** Reads what a sign-in knows about its caller from the request. */
export type SignInContextReader = (ctx: Pick<RequestContext, 'clientAddress' | 'header'>) => SignInContext;

/** The tenants app's {@link SignInContextReader}, built from its proxy settings. */
export const SIGN_IN_CONTEXT = createToken<SignInContextReader>('SignInContextReader');

/**
 * The client address as the app's proxy rules read it (`TRUSTED_PROXY_HOPS`, the same rule the
 * API keys' `allowedCidrs` use: never a raw `X-Forwarded-For`) and the User-Agent: what sign-in
 * throttling counts per address and the session list shows.
 *
 * @example
 * const read = signInContextReader(config.trustedProxyHops);
 * await service.signIn(identifier, password, read(ctx));
 */
export function signInContextReader(trustedProxyHops: number): SignInContextReader {
  const clientAddress = createClientAddressReader({ trustedProxyHops });
  return (ctx) => ({
    clientAddress: clientAddress({ socketAddress: ctx.clientAddress, forwardedFor: ctx.header('x-forwarded-for') }),
    userAgent: ctx.header('user-agent') ?? undefined,
  });
}
