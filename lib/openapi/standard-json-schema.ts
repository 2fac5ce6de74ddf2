import type { SchemaSide } from '../internal/schema.js';
import type { ConvertedSchema, SchemaScope } from './converted-schema.js';
import { decodePointer, LOCAL_DEFS, localRefs, NONE, reachable } from './converted-schema.js';
import type { JsonSchema } from './openapi-document.js';

// JSON Schema for schemas of libraries other than zod, through the library's own converter:
// Standard JSON Schema (`~standard.jsonSchema`) where the schema implements it (ArkType 2.2,
// valibot's `toStandardJsonSchema` wrapper), else `@valibot/to-json-schema` for valibot, else
// ArkType's own `toJsonSchema()` (ArkType before 2.2), else an open schema that says why.

/**
 * A Standard Schema value as the generator reads it: the vendor, and the Standard JSON Schema
 * converter (`@standard-schema/spec` 1.1's `StandardJSONSchemaV1`) when the schema has one.
 */
export interface StandardSchemaLike {
  readonly '~standard': {
    readonly vendor: string;
    readonly version: 1;
    readonly jsonSchema?: {
      readonly input: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
      readonly output: (options: StandardJsonSchemaOptions) => Record<string, unknown>;
    };
  };
}

/** The options of a Standard JSON Schema conversion (the spec's `StandardJSONSchemaV1.Options`). */
export interface StandardJsonSchemaOptions {
  readonly target: 'draft-2020-12' | 'draft-07' | 'openapi-3.0' | (string & {});
  readonly libraryOptions?: Record<string, unknown> | undefined;
}

/** The slice of `@valibot/to-json-schema` the generator calls. */
interface ValibotConverter {
  toJsonSchema(
    schema: unknown,
    config: { target: 'draft-2020-12'; typeMode: SchemaSide; errorMode: 'throw' | 'ignore' },
  ): Record<string, unknown>;
}

/**
 * The optional peer's name in a variable, not a literal: a bundler (a Workers build) must neither
 * fail to resolve it when it is not installed nor inline it when it is.
 */
const VALIBOT_CONVERTER: string = '@valibot/to-json-schema';

/** `undefined`: not looked for yet; `null`: looked for and not installed. */
let valibot: ValibotConverter | null | undefined;

/** Converter modules given to `loadSchemaConverters` instead of being loaded by name. */
export interface SchemaConverterModules {
  /** `@valibot/to-json-schema` (its `toJsonSchema` is what is used). */
  readonly valibot?: { readonly toJsonSchema: (...args: never[]) => unknown } | undefined;
}

/**
 * Loads the optional converters that non-zod schemas need (today `@valibot/to-json-schema`, for
 * valibot schemas), so that `generateOpenApiDocument`, which is synchronous, can use them. On
 * Node, Bun and Deno the generator loads the converter itself the first time it meets a valibot
 * schema, and `serveOpenApi` calls this before its first build, so most apps never call it. A
 * bundle without module resolution (Workers) passes the module it imported. A converter that is
 * not installed is no error: its schemas are documented as open schemas whose description names
 * the package to install.
 *
 * @example
 * import * as valibotJsonSchema from '@valibot/to-json-schema';
 * import { generateOpenApiDocument, loadSchemaConverters } from 'tessera-http/openapi';
 * await loadSchemaConverters({ valibot: valibotJsonSchema }); // or () where packages resolve
 * const doc = generateOpenApiDocument(app, { title: 'Blog', version: '1.0.0' });
 */
export async function loadSchemaConverters(modules: SchemaConverterModules = {}): Promise<void> {
  if (modules.valibot !== undefined) {
    valibot = asValibotConverter(modules.valibot);
    if (valibot === null) throw new TypeError('loadSchemaConverters: valibot must be the @valibot/to-json-schema module (it has no toJsonSchema function).');
    return;
  }
  if (valibot) return;
  try {
    valibot = asValibotConverter(await import(/* @vite-ignore */ VALIBOT_CONVERTER));
  } catch {
    valibot = null;
  }
}

/**
 * The valibot converter, loaded synchronously where the runtime allows it (Node 20.16+, Bun and
 * Deno have `process.getBuiltinModule`, hence `createRequire`); a Workers bundle has neither, and
 * has `loadSchemaConverters()`. No static import of `node:module`: this module runs everywhere.
 */
function valibotConverter(): ValibotConverter | null {
  if (valibot !== undefined) return valibot;
  valibot = null;
  try {
    const runtime = (globalThis as { process?: { getBuiltinModule?: (name: string) => unknown } }).process;
    const nodeModule = runtime?.getBuiltinModule?.('node:module') as { createRequire?: (from: string) => (id: string) => unknown } | undefined;
    if (nodeModule?.createRequire) valibot = asValibotConverter(nodeModule.createRequire(import.meta.url)(VALIBOT_CONVERTER));
  } catch {
    valibot = null;
  }
  return valibot;
}

function asValibotConverter(loaded: unknown): ValibotConverter | null {
  const module = loaded as { toJsonSchema?: unknown; default?: { toJsonSchema?: unknown } } | null;
  if (typeof module?.toJsonSchema === 'function') return module as ValibotConverter;
  if (typeof module?.default?.toJsonSchema === 'function') return module.default as ValibotConverter;
  return null;
}

/**
 * Turns the automatic synchronous loading of the valibot converter off (as on a runtime without
 * `createRequire`) or resets it; for tests of the open-schema fallback.
 *
 * @example
 * forgetSchemaConverters({ installed: false });
 */
export function forgetSchemaConverters(state: { installed: boolean }): void {
  valibot = state.installed ? undefined : null;
}

/**
 * Converts a non-zod Standard Schema to JSON Schema 2020-12, input side for requests and output
 * side for responses, through its library's own converter. `$schema` is dropped; the converter's
 * `$defs` (recursive schemas) become cycle-breaking defs, named after their first use as zod's
 * anonymous ones are. A part the converter cannot express, or a schema no converter is available
 * for, is recorded as a problem (so `onUnrepresentable` applies); the latter is documented as an
 * open schema whose description says why.
 *
 * @example
 * const converted = convertStandardSchema(v.object({ title: v.string() }), 'input');
 * converted.root; // { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] }
 */
export function convertStandardSchema(schema: StandardSchemaLike, side: SchemaSide): ConvertedSchema {
  const props = schema['~standard'];
  const vendor = props.vendor;
  const problems: string[] = [];
  let json: Record<string, unknown> | undefined;
  try {
    if (props.jsonSchema !== undefined) {
      json = props.jsonSchema[side]({ target: 'draft-2020-12', ...(vendor === 'arktype' ? { libraryOptions: arkTypeFallbacks(problems) } : {}) });
    } else if (vendor === 'valibot') {
      const converter = valibotConverter();
      if (converter === null) return open(`no JSON Schema converter for valibot schemas is installed (install ${VALIBOT_CONVERTER})`);
      try {
        json = converter.toJsonSchema(schema, { target: 'draft-2020-12', typeMode: side, errorMode: 'throw' });
      } catch (error) {
        // What valibot cannot express (a transform, a custom check) is left out, and reported.
        problems.push(`(some part): ${messageOf(error)}`);
        json = converter.toJsonSchema(schema, { target: 'draft-2020-12', typeMode: side, errorMode: 'ignore' });
      }
    } else if (vendor === 'arktype' && hasArkTypeSides(schema)) {
      json = (side === 'input' ? schema.in : schema.out).toJsonSchema();
    } else {
      return open(`no JSON Schema converter is known for ${vendor} schemas (a schema that implements Standard JSON Schema, \`~standard.jsonSchema\`, is converted by its library)`);
    }
  } catch (error) {
    return open(`the ${vendor} converter failed: ${messageOf(error)}`);
  }
  return withDefs(json, problems);
}

/**
 * ArkType's options for the parts JSON Schema cannot express, which its Standard JSON Schema
 * converter would write as `{}` silently: a `Date` becomes a date-time string (what JSON carries,
 * as for `z.date()`); a bigint, a symbol, `undefined` or a class instance (`Map`) is recorded as a
 * problem, as zod's unrepresentable parts are, and stays `{}`.
 */
function arkTypeFallbacks(problems: string[]): Record<string, unknown> {
  type Context = { code: string; base: Record<string, unknown>; domain?: string; proto?: { name?: string } };
  const unrepresentable = (ctx: Context) => {
    const what = ctx.domain ?? ctx.proto?.name ?? ctx.code;
    const problem = `(some part): ArkType has no JSON Schema for ${what}`;
    if (!problems.includes(problem)) problems.push(problem);
    return ctx.base;
  };
  return {
    fallback: {
      date: () => ({ type: 'string', format: 'date-time' }),
      domain: unrepresentable,
      proto: unrepresentable,
      symbolKey: unrepresentable,
      unit: unrepresentable,
    },
  };
}

/** ArkType before 2.2: `type.in` / `type.out` are the two sides, each with `toJsonSchema()`. */
function hasArkTypeSides(schema: object): schema is { in: { toJsonSchema(): Record<string, unknown> }; out: { toJsonSchema(): Record<string, unknown> } } {
  const sides = schema as { in?: { toJsonSchema?: unknown }; out?: { toJsonSchema?: unknown } };
  return typeof sides.in?.toJsonSchema === 'function' && typeof sides.out?.toJsonSchema === 'function';
}

function open(reason: string): ConvertedSchema {
  return {
    root: { description: `Open schema: ${reason}.` },
    scope: EMPTY_SCOPE,
    problems: [`(whole schema): could not be converted to JSON Schema: ${reason}`],
    reaches: NONE,
  };
}

const EMPTY_SCOPE: SchemaScope = { defs: {}, defTexts: {}, defProblems: {}, defRefs: {} };

/**
 * The converter's output as a conversion: `$schema` dropped, and its `$defs` (or draft-07
 * `definitions`) moved into the scope under anonymous names (`__schema<n>`): the ids a library
 * gives them (ArkType's node ids) mean nothing to a reader, so they are named after their use.
 */
function withDefs(json: Record<string, unknown>, problems: readonly string[]): ConvertedSchema {
  const { $schema: _dialect, $defs, definitions, ...root } = json;
  const found = { ...(definitions as Record<string, JsonSchema> | undefined), ...($defs as Record<string, JsonSchema> | undefined) };
  const names = Object.keys(found);
  if (names.length === 0) return { root, scope: EMPTY_SCOPE, problems, reaches: NONE };
  const renamed = new Map(names.map((name, index) => [name, `__schema${index}`]));
  const rename = (value: unknown): unknown => renameRefs(value, renamed);
  const defs: Record<string, JsonSchema> = {};
  const defTexts: Record<string, string> = {};
  const defProblems: Record<string, readonly string[]> = {};
  const defRefs: Record<string, readonly string[]> = {};
  for (const name of names) {
    const local = renamed.get(name) as string;
    const def = rename(found[name]) as JsonSchema;
    defs[local] = def;
    defTexts[local] = JSON.stringify(def);
    defProblems[local] = NONE;
    defRefs[local] = localRefs(def, []);
  }
  const placed = rename(root) as JsonSchema;
  const scope: SchemaScope = { defs, defTexts, defProblems, defRefs };
  return { root: placed, scope, problems, reaches: reachable(localRefs(placed, []), defRefs) };
}

const DRAFT_07_DEFS = '#/definitions/';
/** Keywords whose values are data, not schemas: a `$ref` in there is no reference. */
const LITERALS = new Set(['const', 'enum', 'default', 'examples', 'example']);

/** A copy with every local reference (`#/$defs/x`, `#/definitions/x`) pointing at its new name. */
function renameRefs(value: unknown, renamed: ReadonlyMap<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, renamed));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    let next: unknown;
    if (key === '$ref' && typeof child === 'string') {
      const prefix = child.startsWith(LOCAL_DEFS) ? LOCAL_DEFS : child.startsWith(DRAFT_07_DEFS) ? DRAFT_07_DEFS : undefined;
      const target = prefix === undefined ? undefined : renamed.get(decodePointer(child.slice(prefix.length)));
      next = target === undefined ? child : LOCAL_DEFS + target;
    } else {
      next = LITERALS.has(key) ? child : renameRefs(child, renamed);
    }
    // Plain assignment of `__proto__` would set the prototype instead of a property named so.
    Object.defineProperty(out, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
