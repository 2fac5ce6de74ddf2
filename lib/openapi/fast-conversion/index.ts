import type { SchemaSide } from '../../internal/schema.js';
import type { JsonSchema } from '../openapi-document.js';
import { Conversion } from './conversion.js';
import { IdConflict, Unsupported } from './unsupported.js';
import type { Node } from './zod-internals.js';

/**
 * A fast converter for the zod 4 schemas APIs are made of, producing exactly what
 * `z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable, override })` produces
 * with the framework's options (`schema-conversion.ts`): the same keywords, values and key order,
 * the same `$defs` for schemas with `.meta({ id })`, the same `$ref`s.
 *
 * zod's converter is general (cycles, reuse, transforms, registries, other targets) and pays for
 * it on every node: a `seen` map, path arrays, metadata merged per lookup, a flattening pass over
 * every node, and a JSON round trip of the result. For an acyclic schema built from the node kinds
 * below, all of that reduces to one bottom-up pass. It reads zod's public internals
 * (`schema._zod.def`, `.bag`, `.optin`/`.optout`, `.parent`, `.values`) and mirrors zod's own
 * algorithm step for step (`json-schema-processors.ts` and `to-json-schema.ts` of zod 4.6):
 * processor output, then metadata, then inheritance from the wrapped or parent schema, then
 * `compactTypeUnion`, then intersection folding.
 *
 * Anything it does not model exactly makes it give up on the whole top-level schema, which then
 * goes through zod: transforms, pipes, codecs, custom, bigint, symbol, undefined, void, NaN, map,
 * set, promise, function, file, recursion, unrepresentable values (a `multipleOf(0)`, a bigint
 * default, metadata that is not plain JSON), record keys other than strings, and metadata keys
 * that take part in the algorithm (`type`, `anyOf`, `$ref`, ...). Correctness is checked by an
 * equivalence property test against zod (`property-tests/openapi/fast-conversion.test.ts`).
 *
 * Supported node kinds: string (all formats and checks), number and int (all checks and integer
 * formats), boolean, null, any, unknown, never, date (as a date-time string), literal, enum,
 * template literal, object (strip, strict, loose, catchall), array, tuple, union (inclusive,
 * discriminated, xor), intersection, record (string, enum and literal keys), optional, nullable,
 * nonoptional, default, prefault, catch, readonly, lazy (acyclic), and `.meta()` / `.describe()`
 * anywhere, including on schemas derived from one with an id.
 */


/** What one fast run gives back: each root's JSON (or `undefined`: convert it with zod), and the defs. */
export interface FastRun {
  readonly roots: readonly (JsonSchema | undefined)[];
  /** Bodies of the schemas with an id, by id, as zod's `$defs` would hold them. */
  readonly defs: Readonly<Record<string, JsonSchema>>;
  /** Every id the run met, with its schema: zod rejects two different schemas with one id in one run. */
  readonly ids: ReadonlyMap<string, unknown>;
}

/**
 * Converts roots in one run, like one zod run over all of them: schemas shared between roots are
 * converted once, and schemas with an id become defs. Returns `undefined` when two different
 * schemas share an id (zod would reject the whole run).
 *
 * @example
 * const run = fastConvert([z.object({ at: z.date() })], 'output');
 * run?.roots[0]; // { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, ... }
 */
export function fastConvert(roots: readonly unknown[], side: SchemaSide): FastRun | undefined {
  const run = new Conversion(side);
  const converted: (JsonSchema | undefined)[] = [];
  try {
    for (const root of roots) converted.push(run.root(root as Node));
  } catch (error) {
    if (error instanceof IdConflict) return undefined;
    throw error;
  }
  run.finish();
  return { roots: converted, defs: run.defs, ids: run.ids };
}

/**
 * What `z.toJSONSchema(schema, options)` returns with the framework's options, without
 * `$schema`, or `undefined` if the fast path does not handle the schema. For tests and tools.
 *
 * @example
 * fastToJsonSchema(z.string().min(1), 'input'); // { type: 'string', minLength: 1 }
 */
export function fastToJsonSchema(schema: unknown, side: SchemaSide): JsonSchema | undefined {
  const run = fastConvert([schema], side);
  const root = run?.roots[0];
  if (run === undefined || root === undefined) return undefined;
  const result: JsonSchema = { ...root };
  if (Object.keys(run.defs).length > 0) result.$defs = run.defs;
  return result;
}

/**
 * Why the fast path does not handle a schema (`undefined` if it does). For tests and tools.
 *
 * @example
 * fastUnsupportedReason(z.string().transform(Number), 'output'); // 'pipe'
 */
export function fastUnsupportedReason(schema: unknown, side: SchemaSide): string | undefined {
  const run = new Conversion(side);
  try {
    run.visit(schema as Node);
    return undefined;
  } catch (error) {
    if (error instanceof Unsupported) return error.reason;
    if (error instanceof IdConflict) return 'two different schemas share an id';
    return error instanceof Error ? error.message : String(error);
  }
}
