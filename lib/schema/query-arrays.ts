import type { QueryRecord } from '../http/query.js';
import type { ZodDef, ZodNode } from './zod-internals.js';
import type { StandardSchemaV1 } from './standard-schema.js';
import { compileSchemaParser, type SchemaParser, type SchemaParseResult } from './schema-parser.js';
import { isZodSchema } from './zod-schema.js';

/** Wrappers that leave the value's shape as it is (optional, default, readonly, ...), and a pipe's input side. */
const WRAPPERS = new Set(['optional', 'nullable', 'default', 'prefault', 'readonly', 'catch', 'nonoptional']);

function unwrap(def: ZodDef | undefined): ZodDef | undefined {
  let current = def;
  for (let depth = 0; current !== undefined && depth < 16; depth++) {
    if (current.type !== undefined && WRAPPERS.has(current.type)) current = current.innerType?._zod.def;
    else if (current.type === 'pipe') current = current.in?._zod.def;
    else return current;
  }
  return current;
}

/**
 * The keys of an object query schema whose values are arrays: a query string cannot tell one
 * value of a list from a plain value (`?tag=a`), so those keys are read as lists whatever their
 * count. Empty for schemas that are not objects.
 *
 * @example
 * arrayQueryKeys(z.object({ tag: z.array(z.string()).optional(), page: z.string() })); // Set { 'tag' }
 */
export function arrayQueryKeys(schema: { readonly _zod: { readonly def: unknown } }): ReadonlySet<string> {
  const keys = new Set<string>();
  const object = unwrap((schema as unknown as ZodNode)._zod.def);
  if (object?.type !== 'object' || object.shape === undefined) return keys;
  for (const [key, part] of Object.entries(object.shape)) {
    if (unwrap(part._zod.def)?.type === 'array') keys.add(key);
  }
  return keys;
}

/**
 * The query with a single value under each of `keys` turned into a one-element list.
 *
 * @example
 * withListKeys({ tag: 'a', page: '2' }, new Set(['tag'])); // { tag: ['a'], page: '2' }
 */
export function withListKeys(query: QueryRecord, keys: ReadonlySet<string>): QueryRecord {
  let out: Record<string, string | readonly string[]> | undefined;
  for (const key of keys) {
    const value = query[key];
    if (typeof value !== 'string') continue;
    out ??= { ...query };
    out[key] = [value];
  }
  return out ?? query;
}

/**
 * The query with each single value that a failed parse's issues point at (by the first key of
 * their path) turned into a one-element list, or the query itself when there is none: how a
 * schema whose shape cannot be read is tried a second time (see the pipeline's query stage).
 *
 * @example
 * withSingleValuesListed({ tag: 'a', page: '2' }, [{ path: ['tag'] }]); // { tag: ['a'], page: '2' }
 */
export function withSingleValuesListed(query: QueryRecord, issues: readonly { readonly path: readonly PropertyKey[] }[]): QueryRecord {
  const keys = new Set<string>();
  for (const issue of issues) {
    const key = issue.path[0];
    if (typeof key === 'string' && typeof query[key] === 'string') keys.add(key);
  }
  return keys.size === 0 ? query : withListKeys(query, keys);
}

/**
 * The parser of a route's `query` schema: the list coercion a query string needs (`?tag=a` as
 * `{ tag: ['a'] }` where the schema wants a list), then the schema's own parser, the same one a
 * body or params schema gets (sync or async, refinements and transforms alike). A zod object's
 * list keys are read from its shape once, here, and coerced before the parse. Another library's
 * shape cannot be read: when its parse fails, the query is parsed once more with each single
 * value an issue points at as a one-element list, and the first parse's issues are the answer
 * when that fails too.
 *
 * @example
 * const parse = compileQueryParser(z.object({ tag: z.array(z.string()) }));
 * parse({ tag: 'a' }); // { success: true, data: { tag: ['a'] } }
 */
export function compileQueryParser(schema: StandardSchemaV1): SchemaParser {
  const parse = compileSchemaParser(schema);
  if (isZodSchema(schema)) {
    // Keys the schema reads as lists, found once: `?tag=a` must reach `z.array(...)` as ['a'].
    const listKeys = arrayQueryKeys(schema);
    return listKeys.size === 0 ? parse : (query) => parse(withListKeys(query as QueryRecord, listKeys));
  }
  const retried = (first: SchemaParseResult, query: QueryRecord): SchemaParseResult | Promise<SchemaParseResult> => {
    if (first.success) return first;
    const listed = withSingleValuesListed(query, first.error.issues);
    if (listed === query) return first;
    const second = parse(listed);
    const pick = (again: SchemaParseResult): SchemaParseResult => (again.success ? again : first);
    return second instanceof Promise ? second.then(pick) : pick(second);
  };
  return (query) => {
    const first = parse(query);
    return first instanceof Promise ? first.then((result) => retried(result, query as QueryRecord)) : retried(first, query as QueryRecord);
  };
}
