import { Mismatch, ResponseMismatchError } from './response-mismatch.js';
import type { ZodSchema as Schema } from './zod-schema.js';
import type { ZodDef as Def, ZodNode } from './zod-internals.js';

/**
 * A schema as the serializer reads it: the internals for the compiled kinds, and `safeParse` for
 * everything it leaves to zod.
 */
interface SerializableSchema extends ZodNode {
  safeParse(value: unknown): { readonly success: true; readonly data: unknown } | { readonly success: false; readonly error: { readonly issues: readonly { readonly path: readonly PropertyKey[] }[] } };
}

/**
 * Turns a handler's result into the JSON text of `schema.parse(result)`, or throws
 * {@link ResponseMismatchError}. `undefined` means what it means to JSON.stringify: nothing
 * (an omitted property, `null` in an array).
 *
 * @example
 * const serialize = compileResponseSerializer(Post);
 * serialize({ id: '1', title: 'Hi', passwordHash: 'x' }); // '{"id":"1","title":"Hi"}'
 */
export type ResponseSerializer = (value: unknown) => string | undefined;

type Writer = (value: unknown) => string | undefined;

/**
 * Compiles a serialiser from a zod schema's output side, once per route at boot. Objects, arrays,
 * strings, numbers, booleans, null, dates, enums, literals and the optional / nullable / default /
 * readonly wrappers are compiled into closures that check and write in one pass and write only the
 * declared properties (undeclared ones are stripped, as zod's default object mode strips them).
 * Anything else (checks such as `.min()` or `.email()`, unions, records, transforms, loose or strict
 * objects, refinements) is handed to that sub-schema's own `safeParse`, then JSON.stringify; so
 * the output is always `JSON.stringify(schema.parse(value))`, and what zod would refuse throws
 * {@link ResponseMismatchError}. Closures, not generated code: Workers forbid `new Function`.
 *
 * @example
 * const serialize = compileResponseSerializer(z.object({ id: z.string(), title: z.string() }));
 * serialize({ id: '1', title: 'Hi', internal: true }); // '{"id":"1","title":"Hi"}'
 */
export function compileResponseSerializer(schema: Schema, route?: string): ResponseSerializer {
  const serializable = schema as unknown as SerializableSchema;
  const write = compile(serializable, 0, new Map());
  return (value) => {
    try {
      return write(value);
    } catch (error) {
      if (error instanceof Mismatch) throw new ResponseMismatchError(error.paths(), route);
      throw error;
    }
  };
}

/** Characters JSON.stringify escapes: quote, backslash, controls, and surrogates (a lone one is escaped). */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A JSON string: most strings need no escaping, and checking for that beats JSON.stringify on them. */
function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/** Deeper than this is left to zod. */
const MAX_DEPTH = 32;

/**
 * One schema's writer; `seen` holds the writers of this compilation: a schema met again (shared
 * by several fields) reuses its writer, and one met again while still being compiled (a recursive
 * schema, through a getter) goes to zod there, so compiling is linear in the schema's size.
 */
function compile(schema: SerializableSchema, depth: number, seen: Map<SerializableSchema, Writer | undefined>): Writer {
  if (seen.has(schema)) return seen.get(schema) ?? viaZod(schema);
  seen.set(schema, undefined);
  const writer = compileNode(schema, depth, seen);
  seen.set(schema, writer);
  return writer;
}

function compileNode(schema: SerializableSchema, depth: number, seen: Map<SerializableSchema, Writer | undefined>): Writer {
  const def = schema._zod.def as Def;
  if (depth > MAX_DEPTH || !isPlainNode(def)) return viaZod(schema);
  switch (def.type) {
    case 'string':
      return (value) => {
        if (typeof value !== 'string') throw new Mismatch([]);
        return quote(value);
      };
    case 'number':
      return (value) => {
        if (typeof value !== 'number' || !Number.isFinite(value)) throw new Mismatch([]);
        // Number-to-string is what JSON.stringify writes for a finite number (-0 included: "0").
        return `${value}`;
      };
    case 'boolean':
      return (value) => {
        if (value === true) return 'true';
        if (value === false) return 'false';
        throw new Mismatch([]);
      };
    case 'null':
      return (value) => {
        if (value !== null) throw new Mismatch([]);
        return 'null';
      };
    case 'date':
      return (value) => {
        if (!(value instanceof Date) || Number.isNaN(value.getTime())) throw new Mismatch([]);
        return JSON.stringify(value);
      };
    case 'enum':
    case 'literal':
      return compileChoice(schema, def);
    case 'object':
      return compileObject((def.shape ?? {}) as Readonly<Record<string, SerializableSchema>>, depth, seen);
    case 'array':
      return compileArray(def.element as SerializableSchema, depth, seen);
    case 'optional': {
      const innerSchema = def.innerType as SerializableSchema;
      const inner = compile(innerSchema, depth + 1, seen);
      if (innerSchema._zod.optin !== 'defaulted') return (value) => (value === undefined ? undefined : inner(value));
      // zod lets a defaulted inner schema substitute for undefined, and reads its failure as undefined.
      return (value) => {
        if (value !== undefined) return inner(value);
        try {
          return inner(undefined);
        } catch (error) {
          if (error instanceof Mismatch) return undefined;
          throw error;
        }
      };
    }
    case 'nullable': {
      const inner = compile(def.innerType as SerializableSchema, depth + 1, seen);
      return (value) => (value === null ? 'null' : inner(value));
    }
    case 'readonly':
      return compile(def.innerType as SerializableSchema, depth + 1, seen);
    case 'default': {
      // zod also substitutes the default when the inner schema turns a defined value into
      // undefined (a `.catch(undefined)`); only zod can tell that apart, so such inners go to it.
      if (!definedStaysDefined(def.innerType as SerializableSchema)) return viaZod(schema);
      const inner = compile(def.innerType as SerializableSchema, depth + 1, seen);
      // zod hands out the default as it is, without parsing it; the getter returns a fresh copy.
      return (value) => (value === undefined ? JSON.stringify(def.defaultValue) : inner(value));
    }
    default:
      return viaZod(schema);
  }
}

/**
 * The definition properties each compiled kind may have; any other property (`checks` with
 * entries, `format`, `coerce`, `catchall`, an error map...) means behaviour the closures do not
 * reproduce, so the node goes to zod.
 */
const PLAIN_KEYS: Readonly<Record<string, ReadonlySet<string>>> = {
  string: new Set(['type', 'checks']),
  number: new Set(['type', 'checks']),
  boolean: new Set(['type', 'checks']),
  null: new Set(['type', 'checks']),
  date: new Set(['type', 'checks']),
  enum: new Set(['type', 'checks', 'entries']),
  literal: new Set(['type', 'checks', 'values']),
  object: new Set(['type', 'checks', 'shape']),
  array: new Set(['type', 'checks', 'element']),
  optional: new Set(['type', 'checks', 'innerType']),
  nullable: new Set(['type', 'checks', 'innerType']),
  readonly: new Set(['type', 'checks', 'innerType']),
  default: new Set(['type', 'checks', 'innerType', 'defaultValue']),
};

function isPlainNode(def: Def): boolean {
  const allowed = PLAIN_KEYS[def.type];
  if (allowed === undefined) return false;
  if (def.checks !== undefined && def.checks.length > 0) return false;
  for (const key of Object.keys(def)) if (!allowed.has(key)) return false;
  return true;
}

/**
 * Whether the schema's output is defined for every defined input it accepts: true when the first
 * node under the optional / nullable / readonly / default wrappers is one the closures compile.
 */
function definedStaysDefined(schema: SerializableSchema): boolean {
  let def = schema._zod.def as Def;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (!isPlainNode(def)) return false;
    if (def.type !== 'optional' && def.type !== 'nullable' && def.type !== 'readonly' && def.type !== 'default') return true;
    def = (def.innerType as SerializableSchema)._zod.def as Def;
  }
  return false;
}

/** zod decides: its own parse (checks, refinements, transforms...), then JSON.stringify. */
function viaZod(schema: SerializableSchema): Writer {
  return (value) => {
    const parsed = schema.safeParse(value);
    if (!parsed.success) throw new Mismatch([], parsed.error.issues.map((issue) => issue.path));
    return JSON.stringify(parsed.data);
  };
}

function compileChoice(schema: SerializableSchema, def: Def): Writer {
  const values = def.type === 'enum' ? Object.values(def.entries ?? {}) : [...(def.values ?? [])];
  // Strings, finite numbers, booleans and null write as JSON.stringify writes them; anything else
  // (bigint, undefined, numeric enums' reverse mappings) is zod's business.
  if (!values.every((v) => typeof v === 'string' || typeof v === 'boolean' || v === null || (typeof v === 'number' && Number.isFinite(v)))) return viaZod(schema);
  const allowed = new Set(values);
  return (value) => {
    if (!allowed.has(value)) throw new Mismatch([]);
    return JSON.stringify(value);
  };
}

/**
 * An object writes its declared keys in shape order. An absent key (not `in` the value) follows
 * zod's rules, read from each field's `optin` / `optout`: a plain optional field is left out
 * without a look at its schema; a field that may be absent ignores its own failure; a field that
 * may not be absent is a mismatch even when its schema would accept undefined (a coercion).
 */
function compileObject(shape: Readonly<Record<string, SerializableSchema>>, depth: number, seen: Map<SerializableSchema, Writer | undefined>): Writer {
  const fields = Object.entries(shape).map(([key, part]) => ({
    key,
    prefix: `${JSON.stringify(key)}:`,
    write: compile(part, depth + 1, seen),
    skipWhenAbsent: part._zod.optout === 'optional' && part._zod.optin === 'optional',
    mayBeAbsent: part._zod.optin !== undefined,
    absentFailureIgnored: part._zod.optin !== undefined && part._zod.optout === 'optional',
  }));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Mismatch([]);
    const record = value as Record<string, unknown>;
    let out = '{';
    for (const field of fields) {
      const present = field.key in record;
      if (!present && field.skipWhenAbsent) continue;
      let text: string | undefined;
      try {
        text = field.write(record[field.key]);
      } catch (error) {
        if (!(error instanceof Mismatch)) throw error;
        if (!present && field.absentFailureIgnored) continue;
        error.segments.unshift(field.key);
        throw error;
      }
      if (!present && !field.mayBeAbsent) throw new Mismatch([field.key]);
      if (text !== undefined) out += out.length === 1 ? field.prefix + text : `,${field.prefix}${text}`;
    }
    return `${out}}`;
  };
}

function compileArray(element: SerializableSchema, depth: number, seen: Map<SerializableSchema, Writer | undefined>): Writer {
  const write = compile(element, depth + 1, seen);
  return (value) => {
    if (!Array.isArray(value)) throw new Mismatch([]);
    let out = '';
    for (let i = 0; i < value.length; i++) {
      let text: string | undefined;
      try {
        text = write(value[i]);
      } catch (error) {
        if (error instanceof Mismatch) error.segments.unshift(i);
        throw error;
      }
      out += (i === 0 ? '' : ',') + (text ?? 'null');
    }
    return `[${out}]`;
  };
}
