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
 * Reads and parses a JSON request body. No body at all gives `undefined` (the schema decides
 * whether that is acceptable); a body that is not JSON-typed is 415 (thrown at once, before any
 * byte is read); bad UTF-8 or bad JSON is 400; a body over `limit` bytes is 413. One promise: the
 * body's own; decoding and parsing run in its continuation, and the bytes are not copied again.
 *
 * @example
 * const value = await readJsonBody(incoming, DEFAULT_BODY_LIMIT);
 */
export function readJsonBody(incoming: IncomingRequest, limit: number): Promise<unknown> {
  const contentType = incoming.header('content-type');
  if (contentType !== null && !isJsonContentType(contentType)) throw notJson();
  return incoming.readBody(limit).then((bytes) => parseJsonBytes(bytes, contentType));
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
