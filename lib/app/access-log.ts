import type { Logger } from '../logging/logger.js';
import { Context, type RequestContext } from '../context/request-context.js';
import { getRequestId } from '../context/request-id.js';
import type { ResponseEvent, ResponseObserver } from './response-observer.js';

/**
 * The access line's options: `createApp(root, { accessLog: true })` or `{ accessLog: { fields } }`.
 *
 * @example
 * createApp(AppModule, { accessLog: { fields: (ctx) => ({ keyId: auth.getCurrentApiKey(ctx)?.id }) } });
 */
export interface AccessLogOptions {
  /**
   * Extra fields from the request context (for example the id of the API key used). Never
   * return headers, tokens or keys: the log is read by more people than the secrets are.
   */
  readonly fields?: (ctx: RequestContext) => Readonly<Record<string, string | number | undefined>>;
}

/**
 * The access line: one `info` line per answered request, `request completed` with method, path
 * (never the query string), route template, status, duration in ms, the request id and trace ids
 * when there are, and nothing from the headers. An observer, so it also records requests that
 * guards or the router refused. Paths in `skip` (the health endpoints) are not logged.
 *
 * @example
 * const observe = createAccessLog(logger, {}, new Set(['/health/live']));
 * // {"level":"info","time":...,"msg":"request completed","method":"GET","path":"/posts/1","route":"GET /posts/:id","status":200,"durationMs":0.4}
 */
export function createAccessLog(logger: Logger, options: AccessLogOptions, skip: ReadonlySet<string>): ResponseObserver {
  const extra = options.fields;
  return (event: ResponseEvent) => {
    if (skip.has(event.path)) return;
    const fields: Record<string, unknown> = { method: event.method, path: event.path };
    const ctx = event.ctx;
    if (ctx?.route !== undefined) fields.route = `${ctx.route.method} ${ctx.route.path}`;
    fields.status = event.status;
    fields.durationMs = Math.round(event.durationMs * 10) / 10;
    if (ctx !== undefined) {
      // The id the request-id middleware gave the request (validated there: bounded, safe characters).
      const requestId = getRequestId(ctx);
      if (requestId !== undefined) fields.requestId = requestId;
      if (ctx instanceof Context && ctx.telemetry !== undefined) Object.assign(fields, ctx.telemetry.logBindings());
      if (extra) {
        for (const [key, value] of Object.entries(extra(ctx))) if (value !== undefined) fields[key] = value;
      }
    }
    logger.info(fields, 'request completed');
  };
}
