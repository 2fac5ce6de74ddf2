import { TesseraError } from '../common/tessera-error.js';

/**
 * A handler returned something its route's response schema refuses. The message names where
 * (paths, never values: the value may hold the very secret the schema was meant to keep out).
 *
 * @example
 * try { serialize(result); } catch (error) { if (error instanceof ResponseMismatchError) console.error(error.paths); }
 */
export class ResponseMismatchError extends TesseraError {
  readonly paths: readonly string[];
  constructor(paths: readonly string[], route?: string) {
    const where = paths.length === 0 ? 'at the root' : `at ${paths.slice(0, 5).join(', ')}`;
    super('RESPONSE_MISMATCH', `${route === undefined ? 'A handler' : `Route ${route}`} returned a value that does not match its response schema (${where}); nothing was sent.`);
    this.paths = paths;
  }
}

/** Thrown inside the compiled writers; collects the path on the way out (see response-serializer.ts). */
export class Mismatch {
  constructor(readonly segments: PropertyKey[], readonly nested: readonly (readonly PropertyKey[])[] = [[]]) {}
  paths(): string[] {
    return this.nested.map((inner) => formatPath([...this.segments, ...inner]));
  }
}

/**
 * A path as mismatches name it: `$`, `$.tags[1]`.
 *
 * @example
 * formatPath(['tags', 1]); // '$.tags[1]'
 */
export function formatPath(segments: readonly PropertyKey[]): string {
  if (segments.length === 0) return '$';
  return `$${segments.map((segment) => (typeof segment === 'number' ? `[${segment}]` : `.${String(segment)}`)).join('')}`;
}

