import type { StandardSchemaV1 } from './standard-schema.js';
import { isZodSchema } from './zod-schema.js';
import { compileResponseSerializer } from './response-serializer.js';
import { formatPath, ResponseMismatchError } from './response-mismatch.js';
import { toSchemaIssue } from './schema-issues.js';
import { strippingUndeclaredKeys, thawed } from './undeclared-keys.js';

/**
 * Turns a handler's result into the JSON text its response schema lets out, or throws (or
 * rejects with) {@link ResponseMismatchError}; `undefined` is nothing to write. A promise only
 * for a schema whose validation is asynchronous.
 *
 * @example
 * const write = compileResponseWriter(Post, 'Posts.show');
 * const text = await write(post);
 */
export type ResponseWriter = (value: unknown) => string | undefined | Promise<string | undefined>;

/**
 * The writer for a route's response schema, chosen once at boot. A zod schema gets the compiled
 * serializer (the fast path, see compileResponseSerializer). Any other Standard Schema validates
 * the result and writes `JSON.stringify` of the schema's output: what the schema gives is what is
 * sent. valibot's `object` strips undeclared keys as zod's does; an ArkType object keeps them
 * unless told otherwise, so its response schemas are compiled with `onDeepUndeclaredKey('delete')`
 * (a password hash on the record is not sent, as with zod). A library whose objects pass
 * undeclared keys through sends them.
 *
 * @example
 * const write = compileResponseWriter(v.object({ id: v.string() }), 'Posts.show');
 * write({ id: '1', secret: 'x' }); // '{"id":"1"}'
 */
export function compileResponseWriter(schema: StandardSchemaV1, route?: string): ResponseWriter {
  if (isZodSchema(schema)) return compileResponseSerializer(schema, route);
  const stripping = strippingUndeclaredKeys(schema);
  const standard = stripping['~standard'];
  // ArkType drops undeclared keys from its own copy of the value, a copy that keeps the original's
  // frozenness, so a frozen record (a cached one) would fail; it validates a thawed copy instead.
  const input = stripping === schema ? (value: unknown) => value : thawed;
  const written = (result: StandardSchemaV1.Result<unknown>): string | undefined => {
    if (result.issues) throw new ResponseMismatchError(result.issues.map((issue) => formatPath(toSchemaIssue(issue).path)), route);
    return JSON.stringify(result.value);
  };
  return (value) => {
    const result = standard.validate(input(value));
    return result instanceof Promise ? result.then(written) : written(result);
  };
}
