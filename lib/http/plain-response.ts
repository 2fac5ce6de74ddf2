/**
 * The core's own response value: status, headers and an optional string body. Adapters write
 * it straight to the socket; `app.fetch` turns it into a web-standard Response. Building a real
 * Response for every JSON answer costs more than the handler on the hot path, so the core
 * defers that to whoever needs one.
 *
 * @example
 * const res: PlainResponse = { status: 204, headers: {}, body: null };
 */
export interface PlainResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | null;
}

/** What a compiled route produces: a PlainResponse, or a Response a handler returned. */
export type Outcome = PlainResponse | Response;

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' });
const EMPTY_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const NO_CONTENT: PlainResponse = Object.freeze({ status: 204, headers: EMPTY_HEADERS, body: null });

/**
 * A JSON PlainResponse. `undefined` means "no content" and becomes 204 with an empty body.
 *
 * @example
 * jsonResponse(201, { id: '1' });
 */
export function jsonResponse(status: number, value: unknown): PlainResponse {
  return jsonTextResponse(status, value === undefined ? undefined : JSON.stringify(value));
}

/**
 * A JSON PlainResponse from text already serialised; `undefined` (nothing JSON can write) is 204.
 *
 * @example
 * jsonTextResponse(200, serialize(post));
 */
export function jsonTextResponse(status: number, text: string | undefined): PlainResponse {
  if (text === undefined) return NO_CONTENT;
  return { status, headers: JSON_HEADERS, body: text };
}

/**
 * Converts an outcome to a web-standard Response.
 *
 * @example
 * const response = toResponse(jsonResponse(200, { ok: true }));
 */
export function toResponse(outcome: Outcome): Response {
  if (outcome instanceof Response) return outcome;
  return new Response(outcome.body, { status: outcome.status, headers: outcome.headers as Record<string, string> });
}

/**
 * The same outcome without a body, for HEAD requests.
 *
 * @example
 * withoutBody(jsonResponse(200, [])).body; // null
 */
export function withoutBody(outcome: Outcome): Outcome {
  if (outcome instanceof Response) return new Response(null, { status: outcome.status, headers: outcome.headers });
  return outcome.body === null ? outcome : { status: outcome.status, headers: outcome.headers, body: null };
}
