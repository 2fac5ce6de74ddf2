import { BadRequestException, UnsupportedMediaTypeException } from './http-exception.js';
import { decodeUtf8, type IncomingRequest } from './incoming-request.js';

/** Default body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1_048_576;


/**
 * Whether a content type is JSON: `application/json` or any `+json` suffix type, parameters ignored.
 *
 * @example
 * isJsonContentType('application/merge-patch+json; charset=utf-8'); // true
 */
export function isJsonContentType(contentType: string): boolean {
  // The type nearly every client sends, without the slicing and lower-casing below.
  if (contentType === 'application/json') return true;
  const semi = contentType.indexOf(';');
  const type = (semi === -1 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return type === 'application/json' || (type.startsWith('application/') && type.endsWith('+json'));
}

/**
 * Reads and parses a JSON request body, then hands the value to `onValue`; a failure goes to
 * `onError` instead: 415 for a body that is not JSON-typed (before any byte is read), 413, or 400
 * for a body that is not JSON once decoded as UTF-8 the way `Request.text()` decodes it
 * (`decodeUtf8`: a malformed sequence becomes U+FFFD, so `{\xff}` is invalid JSON and a string
 * keeps U+FFFD, as in Hono, Elysia and Fastify; a fetch runtime's own text() is then as good as
 * the bytes, and cheaper). Exactly one of them is called, as the body ends on an adapter that
 * calls back then (Node's), with no promise of its own. No body at all gives `undefined` (the
 * schema decides whether that is acceptable). The adapter's `readText` is used when it has one.
 * What `onValue` throws is the caller's: it is not caught here.
 *
 * @example
 * readJsonBody(incoming, DEFAULT_BODY_LIMIT, (value) => reply(answerFor(value)), (error) => reply(problemFor(error)));
 */
export function readJsonBody(incoming: IncomingRequest, limit: number, onValue: (value: unknown) => void, onError: (error: unknown) => void): void {
  const contentType = incoming.header('content-type');
  if (contentType !== null && !isJsonContentType(contentType)) {
    onError(notJson());
    return;
  }
  const onText = (text: string): void => {
    let value: unknown;
    try {
      value = parseJsonText(text, contentType);
    } catch (error) {
      onError(error);
      return;
    }
    onValue(value);
  };
  if (incoming.readText !== undefined) incoming.readText(limit, onText, onError);
  else incoming.readBody(limit, (bytes) => onText(decodeUtf8(bytes)), onError);
}

function notJson(): UnsupportedMediaTypeException {
  return new UnsupportedMediaTypeException('Expected a JSON body (Content-Type: application/json).');
}

function parseJsonText(text: string, contentType: string | null): unknown {
  if (text === '') return undefined;
  if (contentType === null) throw notJson();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestException('Request body is not valid JSON.');
  }
}
