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
 * Reads and parses a JSON request body, then hands the value to `onValue`; a failure (413, bad
 * UTF-8 or JSON: 400, or anything `onValue` throws) goes to `onError`, and the promise settles
 * with what either returns (it rejects only if `onError` throws). No body at all gives
 * `undefined` (the schema decides whether that is acceptable). A body that is not JSON-typed is
 * 415, thrown at once, before any byte is read. The bytes are not copied again. An adapter that
 * implements `readBodyThen` (Node's) runs both callbacks as the body ends: no promise reaction
 * between the socket and the route.
 *
 * @example
 * const outcome = await readJsonBodyThen(incoming, DEFAULT_BODY_LIMIT, (value) => answer(value), (error) => problem(error));
 */
export function readJsonBodyThen<T>(incoming: IncomingRequest, limit: number, onValue: (value: unknown) => T, onError: (error: unknown) => T): Promise<Awaited<T>> {
  const contentType = incoming.header('content-type');
  if (contentType !== null && !isJsonContentType(contentType)) throw notJson();
  const onBytes = (bytes: Uint8Array): T => {
    let value: unknown;
    try {
      value = parseJsonBytes(bytes, contentType);
    } catch (error) {
      return onError(error);
    }
    try {
      return onValue(value);
    } catch (error) {
      return onError(error);
    }
  };
  if (incoming.readBodyThen !== undefined) return incoming.readBodyThen(limit, onBytes, onError);
  // `then` adopts a promise a callback returns, which is what Awaited<T> says.
  return incoming.readBody(limit).then(onBytes, onError) as Promise<Awaited<T>>;
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
