import type { StandardSchemaV1 } from './standard-schema.js';
import { isZodSchema } from './zod-schema.js';
import { parseMaybeAsync } from './parse-maybe-async.js';
import { toSchemaIssue, type SchemaIssue } from './schema-issues.js';

/**
 * What parsing a value gives, in zod's `safeParse` shape whatever the library: the output, or
 * the issues (zod's own for a zod schema, see {@link SchemaIssue}).
 *
 * @example
 * const result: SchemaParseResult = { success: false, error: { issues: [{ code: 'invalid', path: ['title'], message: 'Required' }] } };
 */
export type SchemaParseResult = { readonly success: true; readonly data: unknown } | { readonly success: false; readonly error: { readonly issues: readonly SchemaIssue[] } };

/**
 * Parses one value: synchronously when the schema can (zod's sync parse; a Standard Schema whose
 * `validate` answers at once), else a promise.
 *
 * @example
 * const parse = compileSchemaParser(CreatePost);
 * const result = parse(body); // a SchemaParseResult, or its promise
 */
export type SchemaParser = (value: unknown) => SchemaParseResult | Promise<SchemaParseResult>;

/**
 * The parser for a schema, chosen once at boot: zod's `safeParse` (async only when the schema
 * needs it, see parseMaybeAsync) for a zod schema, `~standard.validate` for any other Standard
 * Schema, its issues normalised (see toSchemaIssue) and its promise, if any, awaited.
 *
 * @example
 * const parse = compileSchemaParser(v.object({ title: v.string() }));
 * parse({ title: 1 }); // { success: false, error: { issues: [{ code: 'string', path: ['title'], message: '...' }] } }
 */
export function compileSchemaParser(schema: StandardSchemaV1): SchemaParser {
  if (isZodSchema(schema)) return (value) => parseMaybeAsync(schema, value) as SchemaParseResult | Promise<SchemaParseResult>;
  const standard = schema['~standard'];
  return (value) => {
    const result = standard.validate(value);
    return result instanceof Promise ? result.then(parseResultOf) : parseResultOf(result);
  };
}

/**
 * A Standard Schema validation result as a parse result: the value, or the issues with their
 * paths normalised (`toSchemaIssue`).
 *
 * @example
 * const parsed = parseResultOf(schema['~standard'].validate(value) as StandardSchemaV1.Result<unknown>);
 */
export function parseResultOf(result: StandardSchemaV1.Result<unknown>): SchemaParseResult {
  if (!result.issues) return { success: true, data: result.value };
  return { success: false, error: { issues: result.issues.map(toSchemaIssue) } };
}
