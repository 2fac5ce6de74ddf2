import { decodeBase64, encodeBase64 } from '../common/base64.js';
import { HttpException, isHttpException } from '../http/http-exception.js';
import { readStreamWithLimit } from '../http/body-limit.js';
import type { Answer, PlainAnswer } from '../http/answer.js';

/** The header that marks a replayed answer (Stripe's name). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * The answer headers stored with an answer unless the route names more: those that describe the
 * body or the resource it created. What the middleware adds (CORS, request ids) is not stored, as
 * it runs again on a replay; `set-cookie` never is (a credential, kept in plain in the store).
 */
export const KEPT_HEADERS: readonly string[] = Object.freeze([
  'cache-control',
  'content-disposition',
  'content-encoding',
  'content-language',
  'content-location',
  'content-type',
  'etag',
  'last-modified',
  'link',
  'location',
]);

/** Statuses that tell the client to come back later: the retry must run again, not see them again. */
const COME_BACK_LATER = new Set([408, 425, 429]);

/**
 * Whether an answer with this status is the outcome a retry should see again: below 500 and not
 * one that says "try later". A 5xx says nothing changed (or the app cannot tell), so the claim is
 * released and the retry runs the handler again.
 *
 * @example
 * isFinalStatus(201); // true
 */
export function isFinalStatus(status: number): boolean {
  return status < 500 && !COME_BACK_LATER.has(status);
}

/**
 * An answer as stored: the status, the kept headers and the body (text, or base64 for bytes that
 * are not UTF-8), or an HttpException the handler threw, thrown again on a replay so that the
 * app's `onError` shapes it as it shaped the first.
 */
export type RecordedAnswer =
  | { readonly v: 1; readonly kind: 'answer'; readonly status: number; readonly headers: Readonly<Record<string, string>>; readonly body: string | null; readonly base64?: true }
  | {
      readonly v: 1;
      readonly kind: 'exception';
      readonly status: number;
      readonly message: string;
      readonly details: Readonly<Record<string, unknown>> | undefined;
      readonly headers: Readonly<Record<string, string>> | undefined;
      readonly type: string;
      readonly code: string;
    };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The record of a Response, or undefined when it is not stored: a status that is not final, an
 * event stream (it does not end), or a body over `maxBytes` (read from a copy, so the client
 * still gets all of it).
 *
 * @example
 * const recorded = await recordResponse(response, 1_048_576, KEPT_HEADERS);
 */
export async function recordResponse(response: Response, maxBytes: number, kept: readonly string[]): Promise<RecordedAnswer | undefined> {
  if (!isFinalStatus(response.status)) return undefined;
  if (response.headers.get('content-type')?.toLowerCase().startsWith('text/event-stream') === true) return undefined;
  const headers: Record<string, string> = {};
  for (const name of kept) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  if (response.body === null) return { v: 1, kind: 'answer', status: response.status, headers, body: null };
  let bytes: Uint8Array;
  try {
    bytes = await readStreamWithLimit(response.clone().body, response.headers.get('content-length'), maxBytes);
  } catch {
    return undefined;
  }
  try {
    return { v: 1, kind: 'answer', status: response.status, headers, body: utf8.decode(bytes) };
  } catch {
    return { v: 1, kind: 'answer', status: response.status, headers, body: encodeBase64(bytes, 'standard'), base64: true };
  }
}

/**
 * The record of an error a handler threw, or undefined when it is not stored: anything but an
 * HttpException with a final status (see {@link isFinalStatus}) is thrown again by a retry's own run.
 *
 * @example
 * recordException(new ConflictException('Title taken'))?.status; // 409
 */
export function recordException(error: unknown): RecordedAnswer | undefined {
  if (!isHttpException(error) || !isFinalStatus(error.status)) return undefined;
  return { v: 1, kind: 'exception', status: error.status, message: error.message, details: error.details, headers: error.headers, type: error.type, code: error.code };
}

/**
 * The record of a plain answer (what a route's answer step makes of a value), or undefined when it
 * is not stored: a status that is not final, or a body over `maxBytes`. Its headers are those of
 * `kept` it has.
 *
 * @example
 * const recorded = recordPlainAnswer(jsonAnswer(201, { id: '1' }), 1_048_576, KEPT_HEADERS);
 */
export function recordPlainAnswer(answer: PlainAnswer, maxBytes: number, kept: readonly string[]): RecordedAnswer | undefined {
  if (!isFinalStatus(answer.status)) return undefined;
  // UTF-8 takes at most 3 bytes per UTF-16 unit: measure only a body that might be over.
  if (answer.body !== null && answer.body.length * 3 > maxBytes && encoder.encode(answer.body).byteLength > maxBytes) return undefined;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (kept.includes(name)) headers[name] = value;
  return { v: 1, kind: 'answer', status: answer.status, headers, body: answer.body };
}

const encoder = new TextEncoder();

/**
 * A stored answer as the replay gives it: the stored status, kept headers and body with the
 * replay marker, as a plain answer when the body is text (the first answer's form, so the Node
 * adapter writes both alike) and a Response for bytes; or the stored HttpException thrown again
 * with the marker among its headers. A record this version cannot read throws (a 500): never a
 * guessed answer.
 *
 * @example
 * return replay(claim.answer);
 */
export function replay(text: string): Answer {
  const recorded = JSON.parse(text) as RecordedAnswer;
  if (recorded?.v !== 1) throw new Error('idempotency store: a stored answer of an unknown format');
  if (recorded.kind === 'exception') {
    throw new HttpException(recorded.status, recorded.message, recorded.details as Record<string, unknown> | undefined, { ...recorded.headers, [REPLAYED_HEADER]: 'true' }, { type: recorded.type, code: recorded.code });
  }
  const headers = { ...recorded.headers, [REPLAYED_HEADER]: 'true' };
  if (recorded.base64 !== true) return { status: recorded.status, headers, body: recorded.body };
  const body = recorded.body === null ? null : decodeBase64(recorded.body, 'standard');
  if (body === undefined) throw new Error('idempotency store: a stored answer with a malformed body');
  return new Response(body as BodyInit | null, { status: recorded.status, headers });
}
