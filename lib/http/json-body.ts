import { BadRequestException, UnsupportedMediaTypeException } from './http-exception.js';
import type { IncomingRequest } from './incoming-request.js';

/** Default body limit: 1 MiB. */
export const DEFAULT_BODY_LIMIT = 1_048_576;

const decoder = new TextDecoder('utf-8', { fatal: true });

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
 * for bad UTF-8 or JSON. Exactly one of them is called, as the body ends on an adapter that
 * calls back then (Node's), with no promise of its own. No body at all gives `undefined` (the
 * schema decides whether that is acceptable). The bytes are not copied again. What `onValue`
 * throws is the caller's: it is not caught here.
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
  incoming.readBody(
    limit,
    (bytes) => {
      let value: unknown;
      try {
        value = parseJsonBytes(bytes, contentType);
      } catch (error) {
        onError(error);
        return;
      }
      onValue(value);
    },
    onError,
  );
}

function notJson(): UnsupportedMediaTypeException {
  return new UnsupportedMediaTypeException('Expected a JSON body (Content-Type: application/json).');
}

function parseJsonBytes(bytes: Uint8Array, contentType: string | null): unknown {
  if (bytes.byteLength === 0) return undefined;
  if (contentType === null) throw notJson();
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new BadRequestException('Request body is not valid UTF-8.');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestException('Request body is not valid JSON.');
  }
}
