import type { RequestContext } from '../context/request-context.js';
import { getRequestId } from '../context/request-id.js';
import type { ResponseEvent, ResponseObserver } from './response-observer.js';

/**
 * Options of {@link createAccessLog}.
 *
 * @example
 * createAccessLog({ write: (line) => process.stdout.write(line + '\n') });
 */
export interface AccessLogOptions {
  /** Receives one line per request. Default: `console.log`. */
  readonly write?: (line: string, fields: Readonly<Record<string, unknown>>) => void;
  /**
   * Extra fields from the request context (for example the id of the API key used). Never
   * return headers, tokens or keys: the log is read by more people than the secrets are.
   */
  readonly fields?: (ctx: RequestContext) => Readonly<Record<string, string | number | undefined>>;
}

/**
 * An access log: method, path without the query string, status and duration, the request id
 * when the request-id middleware runs, and nothing from the headers. It is a response observer, not an interceptor, so that it also records
 * requests refused by guards or by the router.
 *
 * @example
 * const app = await createApp(AppModule, { onResponse: [createAccessLog()] });
 * // GET /posts/1 200 0.4ms
 */
export function createAccessLog(options: AccessLogOptions = {}): ResponseObserver {
  const write = options.write ?? ((line: string) => console.log(line));
  const extra = options.fields;
  return (event: ResponseEvent) => {
    const fields: Record<string, unknown> = {
      method: event.method,
      path: event.path,
      status: event.status,
      durationMs: Math.round(event.durationMs * 10) / 10,
    };
    let line = `${event.method} ${event.path} ${event.status} ${fields.durationMs}ms`;
    // The id the request-id middleware gave the request (validated there: bounded, safe characters).
    const requestId = event.ctx === undefined ? undefined : getRequestId(event.ctx);
    if (requestId !== undefined) {
      fields.requestId = requestId;
      line += ` requestId=${requestId}`;
    }
    if (extra && event.ctx) {
      for (const [key, value] of Object.entries(extra(event.ctx))) {
        if (value === undefined) continue;
        fields[key] = value;
        line += ` ${key}=${value}`;
      }
    }
    write(line, fields);
  };
}
