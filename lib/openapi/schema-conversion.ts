import { isZodSchema, type Schema } from '../index.js';
import type { SchemaSide } from '../internal/schema.js';
import { z } from 'zod';
import { convertStandardSchema, type StandardSchemaLike } from './standard-json-schema.js';
import { fastResults, type ConvertedSchema } from './converted-schema.js';
import { fastConvert } from './fast-conversion/index.js';
import type { JsonSchema } from './openapi-document.js';
import { convertAlone, convertTogether, convertWithZod } from './zod-conversion.js';

// Requests are documented from a schema's input side, responses from its output side.

/**
 * Conversions are cached per schema object and side for the life of the schema (a WeakMap, so
 * nothing leaks): a schema shared by many routes, or many generations, is converted once. The
 * entries are mode-independent (problems are recorded, not acted on), so every
 * `onUnrepresentable` mode shares them; callers must not mutate what they get back.
 */
const cache = { input: new WeakMap<Schema, ConvertedSchema>(), output: new WeakMap<Schema, ConvertedSchema>() };

/**
 * Converts schemas to JSON Schema 2020-12; zod schemas as below, any other Standard Schema through
 * its library's converter (`convertStandardSchema`). zod schemas are converted with the framework's rules: `z.date()` is a
 * date-time string, other unrepresentable parts become `{}` and are recorded, `$schema` is
 * dropped, schemas with `.meta({ id })` come back as defs, and a schema that cannot be converted
 * at all becomes an open schema whose description says why.
 *
 * Uncached schemas are converted in one run, as if by one zod run over all of them. Most go
 * through a fast converter (`fast-conversion/`) that produces exactly zod's output for the node
 * kinds APIs are made of, several times faster; the rest go through zod, in one run, as the
 * properties of a synthetic object (zod has a large fixed cost per call and per visit, so one
 * run over everything is several times faster than a run per schema). If the combined run would
 * fail (two different schemas with one id, say), each schema is converted on its own, so a
 * failure stays with the schema that caused it.
 *
 * @example
 * const [converted] = convertSchemas([z.object({ at: z.date() })], 'output');
 * converted.root; // { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, ... }
 */
export function convertSchemas(schemas: readonly Schema[], side: SchemaSide): ConvertedSchema[] {
  const known = cache[side];
  const pending = [...new Set(schemas.filter((schema) => !known.has(schema)))];
  if (pending.length > 0) {
    const zod: z.ZodType[] = [];
    for (const schema of pending) {
      if (isZodSchema(schema)) zod.push(schema);
      else known.set(schema, convertStandardSchema(schema as StandardSchemaLike, side));
    }
    if (zod.length > 0) {
      const converted = fastEnabled ? convertPending(zod, side) : convertWithZod(zod, side);
      zod.forEach((schema, index) => known.set(schema, converted[index] as ConvertedSchema));
    }
  }
  return schemas.map((schema) => known.get(schema) as ConvertedSchema);
}

/**
 * The fast converter mirrors zod 4.6's converter (`fast-conversion/`); under another zod minor
 * release every schema goes through zod until the equivalence property test has been run
 * against it and this is widened.
 */
const FAST_ZOD_MINOR = { major: 4, minor: 6 };
let fastEnabled = z.core.version.major === FAST_ZOD_MINOR.major && z.core.version.minor === FAST_ZOD_MINOR.minor;

/**
 * Turns the fast converter off (every schema then goes through zod) or back on; returns the
 * previous setting. For equivalence tests and benchmarks; conversions already cached stay.
 *
 * @example
 * const previous = useFastConversion(false);
 */
export function useFastConversion(enabled: boolean): boolean {
  const previous = fastEnabled;
  fastEnabled = enabled;
  return previous;
}

/**
 * The same result as `convertWithZod`, with the fast converter doing what it can. zod's
 * combined run fails when two different schemas share an id anywhere in it; then every schema is
 * converted alone. So: a clash among the fast ones means all alone; the rest go through one zod
 * run that also fails on a clash with an id the fast ones met. (A fast conversion is the same
 * alone or together: it has no cycle defs and no problems, the only things a shared scope changes.)
 */
function convertPending(pending: readonly z.ZodType[], side: SchemaSide): ConvertedSchema[] {
  const run = fastConvert(pending, side);
  if (run === undefined) {
    return pending.map((schema) => {
      const alone = fastConvert([schema], side);
      const root = alone?.roots[0];
      return alone !== undefined && root !== undefined ? fastResults(alone, [root])[0] as ConvertedSchema : convertAlone(schema, side);
    });
  }
  const rest = pending.filter((_, index) => run.roots[index] === undefined);
  const fast = fastResults(run, run.roots.filter((root): root is JsonSchema => root !== undefined));
  if (rest.length === 0) return fast;
  let slow: ConvertedSchema[];
  try {
    slow = convertTogether(rest, side, run.ids);
  } catch {
    slow = rest.map((schema) => convertAlone(schema, side));
  }
  let nextFast = 0;
  let nextSlow = 0;
  return run.roots.map((root) => (root === undefined ? slow[nextSlow++] : fast[nextFast++]) as ConvertedSchema);
}

/**
 * The conversion of one schema: from the cache when `convertSchemas` has already seen it.
 *
 * @example
 * convertSchema(Post, 'output').root;
 */
export function convertSchema(schema: Schema, side: SchemaSide): ConvertedSchema {
  return cache[side].get(schema) ?? (convertSchemas([schema], side)[0] as ConvertedSchema);
}
