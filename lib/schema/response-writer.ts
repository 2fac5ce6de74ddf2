import type { StandardSchemaV1 } from './standard-schema.js';
import { isZodSchema } from './zod-schema.js';
import { compileResponseSerializer } from './response-serializer.js';
import { formatPath, ResponseMismatchError } from './response-mismatch.js';
import { toSchemaIssue } from './schema-issues.js';

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
 * sent, so a schema that strips undeclared keys (valibot's `object`, ArkType's `"+": "delete"`)
 * keeps them out, and one that passes them through sends them.
 *
 * @example
 * const write = compileResponseWriter(v.object({ id: v.string() }), 'Posts.show');
 * write({ id: '1', secret: 'x' }); // '{"id":"1"}'
 */
export function compileResponseWriter(schema: StandardSchemaV1, route?: string): ResponseWriter {
  if (isZodSchema(schema)) return compileResponseSerializer(schema, route);
  const standard = schema['~standard'];
  const written = (result: StandardSchemaV1.Result<unknown>): string | undefined => {
    if (result.issues) throw new ResponseMismatchError(result.issues.map((issue) => formatPath(toSchemaIssue(issue).path)), route);
    return JSON.stringify(result.value);
  };
  return (value) => {
    const result = standard.validate(value);
    return result instanceof Promise ? result.then(written) : written(result);
  };
}
