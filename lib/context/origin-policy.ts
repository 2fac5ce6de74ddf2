import { createToken, type Token } from '../di/token.js';
import { TesseraError } from '../common/tessera-error.js';
import { Context, createStateKey, OWN_ORIGIN_ONLY, type CompiledOriginPolicy, type RequestContext } from './request-context.js';

export { OWN_ORIGIN_ONLY, type CompiledOriginPolicy } from './request-context.js';

/**
 * Which browser origins besides the app's own may call it (`createApp(root, { origins })`), the
 * one origin policy the app's readers share: `cors()` answers them, WebSocket routes without their
 * own `origins` admit them, and browser sessions' CSRF check accepts their cookie-authenticated
 * requests. A list of exact origins (`https://app.example.com`: scheme, host, port, no path, no
 * trailing slash), a function deciding per request, or `'*'` (any origin: CORS without
 * credentials and WebSockets; the CSRF check never admits an origin it was not named, so `'*'`
 * admits none there).
 *
 * @example
 * const app = await createApp(AppModule, { origins: ['https://app.example.com'], middleware: [cors({ credentials: true })] });
 */
export type OriginPolicy = '*' | readonly string[] | ((origin: string, ctx: RequestContext) => boolean);

const ORIGIN_FORM = /^[a-z][a-z0-9+.-]*:\/\/[^/\s]+$/i;

/**
 * Compiles `createApp`'s `origins`: a list is checked here (a boot error names the bad entry) and
 * becomes a set.
 *
 * @example
 * compileOriginPolicy('*').admits('https://any.example', ctx); // true
 */
export function compileOriginPolicy(policy: OriginPolicy | undefined): CompiledOriginPolicy {
  if (policy === undefined) return OWN_ORIGIN_ONLY;
  if (policy === '*') return Object.freeze({ configured: true, anyOrigin: true, names: () => false, admits: () => true });
  if (typeof policy === 'function') return Object.freeze({ configured: true, anyOrigin: false, names: (origin: string, ctx: RequestContext) => policy(origin, ctx) === true, admits: (origin: string, ctx: RequestContext) => policy(origin, ctx) === true });
  if (!Array.isArray(policy)) throw new TesseraError('ORIGIN_POLICY', "origins is '*', a list of origins or a function");
  for (const origin of policy) {
    if (typeof origin !== 'string' || !ORIGIN_FORM.test(origin)) {
      throw new TesseraError('ORIGIN_POLICY', `origins lists origins exactly as browsers send them (scheme://host[:port], no path, no trailing slash; '*' alone for any): ${JSON.stringify(origin)}`);
    }
  }
  const listed: ReadonlySet<string> = new Set(policy);
  const named = (origin: string) => listed.has(origin);
  return Object.freeze({ configured: true, anyOrigin: false, names: named, admits: named });
}

/**
 * The app's origin policy, a provider every module sees without importing it (the app's
 * built-in): auth's CSRF check reads it at boot.
 *
 * @example
 * defineFactory(CHECK, [ORIGIN_POLICY], (policy) => (ctx, origin) => policy.names(origin, ctx));
 */
export const ORIGIN_POLICY: Token<CompiledOriginPolicy> = createToken<CompiledOriginPolicy>('tessera:origin-policy');

/**
 * The app's origin policy for a request (what `createApp`'s `origins` compiled to); an object
 * that is not the core's context gets {@link OWN_ORIGIN_ONLY}.
 *
 * @example
 * if (originPolicyOf(ctx).admits(origin, ctx)) headers['access-control-allow-origin'] = origin;
 */
export function originPolicyOf(ctx: RequestContext): CompiledOriginPolicy {
  return ctx instanceof Context ? ctx.policies.origins : OWN_ORIGIN_ONLY;
}

/**
 * The origin policy of the deprecated `cors({ origin })`, left on the context by that middleware
 * when the request asks for an upgrade, so a WebSocket route without its own `origins` admits the
 * same origins as before. Apps that give `createApp`'s `origins` do not need it.
 *
 * @example
 * ctx.set(ALLOWED_ORIGINS, (origin) => origin === 'https://app.example.com');
 */
export const ALLOWED_ORIGINS = createStateKey<(origin: string) => boolean>('tessera:allowed-origins');
