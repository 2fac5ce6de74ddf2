/**
 * The one `error.type` rule of every span and metric Tessera records (the semantic conventions:
 * the exception's type, else a low-cardinality code): the error's class name (`TypeError`,
 * `StoreUnavailableError`) when an `Error` was thrown, else `fallback` (the request's status
 * code, `_OTHER` for a library span). The class, not `error.name`: a subclass that does not set
 * `name` still reports `Error` there.
 *
 * @example
 * errorType(new TypeError('x'), '500'); // 'TypeError'
 * errorType('a string', '_OTHER');      // '_OTHER'
 */
export function errorType(error: unknown, fallback: string): string {
  const name = error instanceof Error ? error.constructor.name : '';
  return name === '' || name === 'Object' ? fallback : name;
}

/** The conventions' `error.type` when no more specific type is known. */
export const OTHER_ERROR_TYPE = '_OTHER';
