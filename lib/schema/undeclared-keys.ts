import type { StandardSchemaV1 } from './standard-schema.js';

/** An ArkType type's method making its objects, at every depth, drop the keys they do not declare. */
interface ArkTypeStripping {
  onDeepUndeclaredKey(behavior: 'delete'): StandardSchemaV1;
}

/**
 * The schema as a response writer (or a configuration) must use it: an ArkType type made to
 * strip undeclared keys at every depth (ArkType's default is to keep them); any other schema as
 * it is.
 *
 * @example
 * const strict = strippingUndeclaredKeys(type({ id: 'string' })); // drops `secret` from { id, secret }
 */
export function strippingUndeclaredKeys(schema: StandardSchemaV1): StandardSchemaV1 {
  if (schema['~standard'].vendor !== 'arktype') return schema;
  const ark = schema as StandardSchemaV1 & Partial<ArkTypeStripping>;
  if (typeof ark.onDeepUndeclaredKey !== 'function') return schema;
  try {
    return ark.onDeepUndeclaredKey('delete');
  } catch {
    // ArkType refuses some types this way (an unordered union of objects whose inputs overlap
    // becomes indeterminate): such a type is used as it is, and sends what its output gives
    // (declare `'+': 'delete'` on its objects to strip them; docs/routing.md says so).
    return schema;
  }
}

/**
 * A copy that is not frozen at any depth (structuredClone), or the value itself when it cannot be
 * cloned (a function inside): what an ArkType type that drops keys is given.
 *
 * @example
 * thawed(Object.freeze({ a: 1 })); // { a: 1 }, not frozen
 */
export function thawed(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return structuredClone(value);
  } catch {
    return value;
  }
}
