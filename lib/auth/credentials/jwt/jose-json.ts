import { decodeBase64 } from '../../../internal/primitives.js';

/** Nesting deeper than this in a header or payload is refused rather than walked recursively. */
const MAX_JSON_DEPTH = 32;

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * Decodes one base64url segment of a compact JWS (`token[start, end)`) as a JSON object, then
 * deep-freezes it. Undefined for anything else: bad base64url, invalid UTF-8, bad JSON, a
 * non-object, nesting deeper than 32 or a `__proto__` key. The header and the payload of every
 * token, own or from an outside issuer, are read through this one function.
 *
 * @example
 * const header = parseJoseSegment(token, 0, token.indexOf('.'));
 */
export function parseJoseSegment(token: string, start: number, end: number): Record<string, unknown> | undefined {
  const bytes = decodeBase64(token, 'url', start, end);
  if (bytes === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !freezeJson(value, 0)) return undefined;
  return value as Record<string, unknown>;
}

/**
 * Reads only own properties: a parsed header or payload inherits from Object.prototype, and if
 * anything in the process ever polluted it (say with `exp`), a plain `payload.exp` would read the
 * polluted value for a token that has none.
 *
 * @example
 * ownClaim(payload, 'iss'); // undefined unless the token itself says so
 */
export function ownClaim(object: Readonly<Record<string, unknown>>, name: string): unknown {
  return Object.hasOwn(object, name) ? object[name] : undefined;
}

/**
 * Deep-freezes parsed JSON so the cached payload cannot be mutated by one request and seen by the
 * next. Returns false for `__proto__` keys (JSON.parse makes them plain own properties, but a later
 * `Object.assign` or merge would turn them into a prototype change) and for excessive nesting.
 */
function freezeJson(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value) if (!freezeJson(item, depth + 1)) return false;
  } else {
    for (const name in value) {
      if (name === '__proto__') return false;
      if (!freezeJson((value as Record<string, unknown>)[name], depth + 1)) return false;
    }
  }
  Object.freeze(value);
  return true;
}

/**
 * The positions of the two dots of a compact JWS, or undefined unless there are exactly two.
 *
 * @example
 * const dots = compactDots(token);
 * if (dots === undefined) return FAILURES.malformed;
 * const [firstDot, secondDot] = dots;
 */
export function compactDots(token: string): readonly [firstDot: number, secondDot: number] | undefined {
  const firstDot = token.indexOf('.');
  const secondDot = firstDot < 0 ? -1 : token.indexOf('.', firstDot + 1);
  if (secondDot < 0 || token.indexOf('.', secondDot + 1) >= 0) return undefined;
  return [firstDot, secondDot];
}
