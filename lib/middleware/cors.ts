import { TesseraError, jsonAnswer, withHeaders, type Middleware, type Answer, type OriginPolicy, type RequestContext } from '../index.js';
import { ALLOWED_ORIGINS, originPolicyOf } from '../internal/client-policies.js';
import { addVary } from './vary.js';

/**
 * @deprecated Since 0.2: the app's one origin policy is `OriginPolicy` from `tessera-http`, given
 * to `createApp(root, { origins })`. Removed in 0.3.
 *
 * @example
 * const origin: CorsOrigin = (o) => o.endsWith('.example.com');
 */
export type CorsOrigin = OriginPolicy;

/**
 * Options of {@link cors}.
 *
 * @example
 * cors({ origin: ['https://app.example.com'], credentials: true, exposeHeaders: ['x-request-id'], maxAge: 600 });
 */
export interface CorsOptions {
  /**
   * @deprecated Since 0.2: give the app's one origin policy, `createApp(root, { origins })`, which
   * the WebSocket handshake and browser sessions' CSRF check read too; `cors()` without `origin`
   * reads it. Still read for one minor version while the app has no `origins` (with both, every
   * request through the middleware fails with `CORS_CONFIG`, naming `origins`). Removed in 0.3.
   */
  readonly origin?: CorsOrigin;
  /** Methods a preflight allows. Default GET, HEAD, POST, PUT, PATCH, DELETE. */
  readonly methods?: readonly string[];
  /** Request headers a preflight allows. Default: the ones the preflight asks for. */
  readonly allowHeaders?: readonly string[];
  /** Response headers the browser lets the page read beyond the CORS-safelisted ones. */
  readonly exposeHeaders?: readonly string[];
  /** Lets the browser send cookies and Authorization; the origin is then always echoed, never `*`. */
  readonly credentials?: boolean;
  /** How long a browser may cache a preflight, seconds. */
  readonly maxAge?: number;
}

const DEFAULT_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Cross-origin resource sharing as app middleware, for the origins of the app's one origin policy
 * (`createApp(root, { origins })`): preflights (`OPTIONS` with
 * `Access-Control-Request-Method`) are answered 204 before routing; every other answer (errors
 * and 404s included) carries the allow-origin header when the origin is allowed, and `Vary:
 * Origin` whenever the answer depends on it. A disallowed origin gets no allow-origin header, so
 * the browser refuses the page the answer. `'*'` with `credentials: true` is refused at boot
 * (browsers reject it, and echoing any origin with credentials would let every site act as the user).
 * An app `origins` of `'*'` with `credentials: true` fails the requests through it, for the same reason.
 * WebSocket routes without their own `origins`, and the CSRF check, read the same policy.
 *
 * @example
 * await createApp(AppModule, { origins: ['https://app.example.com'], middleware: [cors()] });
 */
export function cors(options: CorsOptions = {}): Middleware {
  const { origin, credentials = false } = options;
  if (origin === undefined) return corsOf(options, credentials, appPolicy(credentials));
  if (origin === '*' && credentials) {
    throw new TesseraError('CORS_CONFIG', "cors: origin '*' cannot be combined with credentials: true; list the allowed origins instead.");
  }
  if (Array.isArray(origin) && origin.some((o) => typeof o !== 'string' || o === '*' || o.endsWith('/'))) {
    throw new TesseraError('CORS_CONFIG', "cors: list origins exactly as browsers send them (scheme://host[:port], no trailing slash); use '*' alone for any origin.");
  }
  const allowed = new Set(Array.isArray(origin) ? origin : []);
  const allowOriginFor = (requestOrigin: string, ctx: RequestContext): string | undefined => {
    if (origin === '*') return '*';
    if (typeof origin === 'function') return origin(requestOrigin, ctx) ? requestOrigin : undefined;
    return allowed.has(requestOrigin) ? requestOrigin : undefined;
  };
  // With a fixed '*' the answer does not depend on the Origin header; otherwise it does.
  const fixed: CorsPolicy = { varies: origin !== '*', allowOriginFor, ownPolicy: true };
  return corsOf(options, credentials, () => fixed);
}

/** One request's CORS decision: the allow-origin value and whether the answer varies by `Origin`. */
interface CorsPolicy {
  readonly varies: boolean;
  allowOriginFor(requestOrigin: string, ctx: RequestContext): string | undefined;
  /** The deprecated `cors({ origin })`: leaves its policy for the WebSocket handshake. */
  readonly ownPolicy: boolean;
}

/** The app's origin policy as CORS reads it, per request (the middleware is made before the app). */
function appPolicy(credentials: boolean): (ctx: RequestContext) => CorsPolicy {
  return (ctx) => {
    const policy = originPolicyOf(ctx);
    if (policy.anyOrigin && credentials) {
      throw new TesseraError('CORS_CONFIG', "createApp's origins '*' cannot be combined with cors({ credentials: true }); list the allowed origins instead.");
    }
    return {
      varies: !policy.anyOrigin,
      allowOriginFor: (requestOrigin, request) => (policy.anyOrigin ? '*' : policy.admits(requestOrigin, request) ? requestOrigin : undefined),
      ownPolicy: false,
    };
  };
}

function corsOf(options: CorsOptions, credentials: boolean, policyFor: (ctx: RequestContext) => CorsPolicy): Middleware {
  const methods = (options.methods ?? DEFAULT_METHODS).join(', ');
  const allowHeaders = options.allowHeaders?.join(', ');
  const exposeHeaders = options.exposeHeaders?.join(', ');
  const maxAge = options.maxAge === undefined ? undefined : String(Math.max(0, Math.floor(options.maxAge)));

  return async (ctx, next) => {
    const { allowOriginFor, ownPolicy, varies } = policyFor(ctx);
    if (ownPolicy && originPolicyOf(ctx).configured) {
      throw new TesseraError('CORS_CONFIG', "cors({ origin }) (deprecated) and createApp's origins are two origin policies: remove cors's origin and keep createApp(root, { origins }).");
    }
    const requestOrigin = ctx.header('origin');
    const preflight = ctx.method === 'OPTIONS' && requestOrigin !== null && ctx.header('access-control-request-method') !== null;
    if (preflight) {
      const allowOrigin = allowOriginFor(requestOrigin, ctx);
      let answer: Answer = jsonAnswer(204, undefined);
      if (allowOrigin !== undefined) {
        const headers: Record<string, string> = { 'access-control-allow-origin': allowOrigin, 'access-control-allow-methods': methods };
        const asked = ctx.header('access-control-request-headers');
        const headersAllowed = allowHeaders ?? asked;
        if (headersAllowed) headers['access-control-allow-headers'] = headersAllowed;
        if (credentials) headers['access-control-allow-credentials'] = 'true';
        if (maxAge !== undefined) headers['access-control-max-age'] = maxAge;
        answer = withHeaders(answer, headers);
      }
      if (varies) answer = addVary(answer, 'Origin');
      if (allowHeaders === undefined) answer = addVary(answer, 'Access-Control-Request-Headers');
      return answer;
    }
    // The deprecated own policy: a WebSocket route without its own `origins` checks a browser's Origin against it.
    if (ownPolicy && requestOrigin !== null && ctx.header('upgrade') !== null) ctx.set(ALLOWED_ORIGINS, (candidate) => allowOriginFor(candidate, ctx) !== undefined);
    let answer = await next();
    if (requestOrigin !== null) {
      const allowOrigin = allowOriginFor(requestOrigin, ctx);
      if (allowOrigin !== undefined) {
        const headers: Record<string, string> = { 'access-control-allow-origin': allowOrigin };
        if (credentials) headers['access-control-allow-credentials'] = 'true';
        if (exposeHeaders) headers['access-control-expose-headers'] = exposeHeaders;
        answer = withHeaders(answer, headers);
      }
    }
    return varies ? addVary(answer, 'Origin') : answer;
  };
}
