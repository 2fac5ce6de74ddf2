import { REQUEST_ID, withHeaders, type Middleware } from '../index.js';

/**
 * Options of {@link requestId}.
 *
 * @example
 * requestId({ header: 'x-correlation-id', trustIncoming: false });
 */
export interface RequestIdOptions {
  /** The header read from the request and set on the answer. Default `x-request-id`. */
  readonly header?: string;
  /** Take a well-formed id the client (or a proxy) sent. Default true. */
  readonly trustIncoming?: boolean;
  /** Makes a new id. Default `crypto.randomUUID()`. */
  readonly generate?: () => string;
}

/** 1 to 128 characters a log line and a header can carry safely: no spaces, quotes or controls. */
const WELL_FORMED = /^[A-Za-z0-9._:@=+\/-]{1,128}$/;

/**
 * Gives every request an id: the incoming `x-request-id` when it is well formed (at most 128
 * safe characters; anything else could forge log lines or bloat them), else a new UUID. The id
 * is on the context (`getRequestId(ctx)`), on every answer, and in the access log line.
 *
 * @example
 * await createApp(AppModule, { middleware: [requestId()], accessLog: true });
 */
export function requestId(options: RequestIdOptions = {}): Middleware {
  const header = (options.header ?? 'x-request-id').toLowerCase();
  const trustIncoming = options.trustIncoming ?? true;
  const generate = options.generate ?? (() => crypto.randomUUID());
  return async (ctx, next) => {
    const incoming = trustIncoming ? ctx.header(header) : null;
    const id = incoming !== null && WELL_FORMED.test(incoming) ? incoming : generate();
    ctx.set(REQUEST_ID, id);
    return withHeaders(await next(), { [header]: id });
  };
}
