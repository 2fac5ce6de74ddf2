import { z } from 'zod';
import type { JsonSchema } from './openapi-document.js';

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

export type FastSide = 'input' | 'output';

/** What one fast run gives back: each root's JSON (or `undefined`: convert it with zod), and the defs. */
export interface FastRun {
  readonly roots: readonly (JsonSchema | undefined)[];
  /** Bodies of the schemas with an id, by id, as zod's `$defs` would hold them. */
  readonly defs: Readonly<Record<string, JsonSchema>>;
  /** Every id the run met, with its schema: zod rejects two different schemas with one id in one run. */
  readonly ids: ReadonlyMap<string, unknown>;
}

/** The parts of a zod 4 schema's (or check's) internals this reads. */
interface Internals {
  readonly def: Def;
  readonly bag: Bag;
  readonly traits: Set<string>;
  readonly optin?: 'optional' | undefined;
  readonly optout?: 'optional' | undefined;
  readonly parent?: Node | undefined;
  readonly values?: Set<unknown> | undefined;
  readonly pattern?: RegExp | undefined;
  readonly innerType?: Node | undefined;
  readonly toJSONSchema?: (() => unknown) | undefined;
}
interface Node {
  readonly _zod: Internals;
}
interface Def {
  readonly type: string;
  readonly checks?: readonly Node[] | undefined;
  readonly check?: string;
  readonly shape?: Record<string, Node>;
  readonly catchall?: Node | undefined;
  readonly element?: Node;
  readonly options?: readonly Node[];
  readonly inclusive?: boolean;
  readonly left?: Node;
  readonly right?: Node;
  readonly items?: readonly Node[];
  readonly rest?: Node | null;
  readonly keyType?: Node;
  readonly valueType?: Node;
  readonly mode?: string;
  readonly partial?: boolean;
  readonly innerType?: Node;
  readonly in?: Node;
  readonly out?: Node;
  readonly defaultValue?: unknown;
  readonly catchValue?: (ctx: undefined) => unknown;
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly value?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly length?: unknown;
  readonly size?: unknown;
  readonly format?: string;
  readonly pattern?: RegExp | undefined;
  readonly local?: boolean;
  readonly precision?: number | null;
}
interface Bag {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly format?: string;
  readonly patterns?: Set<RegExp>;
}

/** Thrown (never an Error: no stack) when the fast path does not model something. */
class Unsupported {
  constructor(readonly reason: string) {}
}
/** Two different schemas with one id: zod's run would throw, so the caller converts each root alone. */
class IdConflict {}

const registry = z.globalRegistry as unknown as {
  get(schema: unknown): Record<PropertyKey, unknown> | undefined;
  readonly _map: WeakMap<object, Record<PropertyKey, unknown> | undefined>;
};
const NUMBER_FORMAT_RANGES = z.core.util.NUMBER_FORMAT_RANGES as Record<string, [number, number] | undefined>;
const getEnumValues = z.core.util.getEnumValues as (entries: Record<string, string | number>) => unknown[];
const EXACT_PATTERNS = new Map<RegExp, RegExp>([
  [z.core.base64Charset, z.core.regexes.base64],
  [z.core.base64urlCharset, z.core.regexes.base64url],
]);
const FORMAT_NAMES: ReadonlyMap<string, string> = new Map([
  ['guid', 'uuid'],
  ['url', 'uri'],
  ['datetime', 'date-time'],
  ['json_string', 'json-string'],
  ['regex', ''],
]);
/**
 * Metadata keys zod's algorithm reads, not just copies (type unions, references, intersection
 * folding, record keys, prefaults): a schema whose metadata sets one goes through zod. `id` is
 * handled separately; keys inherited from `Object.prototype` would confuse `in` checks.
 */
const ALGORITHM_KEYS = new Set(['type', 'anyOf', 'oneOf', 'allOf', '$ref', '_prefault', 'properties', 'required', 'additionalProperties', 'propertyNames', 'enum', 'const']);
const LOCAL_DEFS = '#/$defs/';

/**
 * Converts roots in one run, like one zod run over all of them: schemas shared between roots are
 * converted once, and schemas with an id become defs. Returns `undefined` when two different
 * schemas share an id (zod would reject the whole run).
 *
 * @example
 * const run = fastConvert([z.object({ at: z.date() })], 'output');
 * run?.roots[0]; // { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, ... }
 */
export function fastConvert(roots: readonly unknown[], side: FastSide): FastRun | undefined {
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
export function fastToJsonSchema(schema: unknown, side: FastSide): JsonSchema | undefined {
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
export function fastUnsupportedReason(schema: unknown, side: FastSide): string | undefined {
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

class Conversion {
  /**
   * Each node's JSON as containers and wrappers hold it (its `$ref` if it has an id), or
   * `ACTIVE` while it is being converted (met again then, it is recursive).
   */
  readonly memo = new Map<Node, JsonSchema | typeof ACTIVE>();
  /** The nodes being converted, outermost first. */
  readonly stack: Node[] = [];
  /** The bodies of the nodes with an id (their JSON in `$defs`). */
  readonly extracted = new Map<Node, JsonSchema>();
  /** The `allOf` of nodes whose own JSON is exactly `{ allOf }`: an intersection inlines those members. */
  readonly simpleAllOf = new Map<Node, JsonSchema[]>();
  readonly ids = new Map<string, Node>();
  readonly defs: Record<string, JsonSchema> = {};
  /** The bodies with an `anyOf`: the only ones zod's `compactTypeUnion` pass can change. */
  readonly unions: JsonSchema[] = [];
  /** The bodies with an `allOf`: where an intersection's `allOf` may have been copied. */
  readonly carriers: JsonSchema[] = [];
  /** Each intersection's `allOf` array, innermost first. */
  readonly intersections: JsonSchema[][] = [];

  constructor(readonly side: FastSide) {}

  root(node: Node): JsonSchema | undefined {
    try {
      return this.visit(node);
    } catch (error) {
      if (error instanceof IdConflict) throw error;
      // Unsupported, or anything thrown by a getter or default: zod decides what that means.
      // Nodes left half-converted are forgotten; finished ones stay valid.
      for (const active of this.stack) this.memo.delete(active);
      this.stack.length = 0;
      return undefined;
    }
  }

  /** zod's `finalize` passes that come after flattening (which `visit` already did, bottom-up). */
  finish(): void {
    for (const body of this.unions) compactTypeUnion(body);
    if (this.intersections.length > 0) {
      const carriers = new Map<unknown, JsonSchema[]>();
      for (const json of this.carriers) {
        const allOf = json.allOf;
        if (!Array.isArray(allOf)) continue;
        const existing = carriers.get(allOf);
        if (existing) existing.push(json);
        else carriers.set(allOf, [json]);
      }
      for (const allOf of this.intersections) for (const json of carriers.get(allOf) ?? []) foldIntersection(json);
    }
    for (const id in this.defs) {
      const body = this.defs[id] as JsonSchema;
      if (body.id === id) delete body.id;
    }
  }

  visit(node: Node): JsonSchema {
    const hit = this.memo.get(node);
    if (hit !== undefined) {
      if (hit === ACTIVE) throw new Unsupported('recursion');
      return hit;
    }
    const internals = node._zod;
    if (internals === undefined || internals.def === undefined) throw new Unsupported('not a zod 4 schema');
    if (internals.toJSONSchema !== undefined) throw new Unsupported('custom toJSONSchema');
    this.memo.set(node, ACTIVE);
    this.stack.push(node);

    const def = internals.def;
    const own: JsonSchema = {};
    /** The schema this one inherits keywords from (zod's `seen.ref` set by the processor). */
    let ref: Node | undefined;
    let prefault: unknown = NONE;
    switch (def.type) {
      case 'string':
        this.string(node, own);
        break;
      case 'number':
        this.number(node, own);
        break;
      case 'boolean':
        own.type = 'boolean';
        break;
      case 'null':
        own.type = 'null';
        break;
      case 'any':
      case 'unknown':
      case 'date': // `{}` here; the override gives it its JSON form below
        break;
      case 'never':
        own.not = {};
        break;
      case 'enum':
        this.enumeration(def, own);
        break;
      case 'literal':
        this.literal(def, own);
        break;
      case 'template_literal': {
        const pattern = internals.pattern;
        if (pattern === undefined) throw new Unsupported('template literal without a pattern');
        own.type = 'string';
        own.pattern = pattern.source;
        break;
      }
      case 'array':
        this.array(node, def, own);
        break;
      case 'object':
        this.object(def, own);
        break;
      case 'union': {
        const options = (def.options as readonly Node[]).map((option) => this.visit(option));
        if (def.inclusive === false) own.oneOf = options;
        else own.anyOf = options;
        break;
      }
      case 'intersection': {
        const left = this.visit(def.left as Node);
        const right = this.visit(def.right as Node);
        const allOf = [...(this.simpleAllOf.get(def.left as Node) ?? [left]), ...(this.simpleAllOf.get(def.right as Node) ?? [right])];
        own.allOf = allOf;
        this.intersections.push(allOf);
        break;
      }
      case 'tuple':
        this.tuple(node, def, own);
        break;
      case 'record':
        this.record(def, own);
        break;
      case 'nullable':
        own.anyOf = [this.visit(def.innerType as Node), { type: 'null' }];
        break;
      case 'optional':
      case 'nonoptional':
        ref = def.innerType;
        break;
      case 'default':
        ref = def.innerType;
        own.default = serializeDefault(def.defaultValue);
        break;
      case 'prefault':
        ref = def.innerType;
        if (this.side === 'input') prefault = serializeDefault(def.defaultValue);
        break;
      case 'catch': {
        ref = def.innerType;
        let value: unknown;
        try {
          value = (def.catchValue as (ctx: undefined) => unknown)(undefined);
        } catch {
          throw new Unsupported('dynamic catch value');
        }
        own.default = jsonValue(value);
        break;
      }
      case 'readonly':
        ref = def.innerType;
        own.readOnly = true;
        break;
      case 'lazy':
        ref = internals.innerType;
        break;
      default:
        throw new Unsupported(def.type);
    }
    if (ref !== undefined) this.visit(ref); // a wrapper's inner schema is processed before its metadata

    const meta = registry.get(node);
    const id = meta === undefined ? undefined : applyMeta(own, meta);
    if (prefault !== NONE) own.default ??= prefault;
    if (own.allOf !== undefined && isOnlyAllOf(own)) this.simpleAllOf.set(node, own.allOf as JsonSchema[]);

    // zod's `flattenRef`: inherit the wrapped schema's keywords (the node's own win), or a parent's.
    // A schema made by `.meta()` / `.describe()` has the schema it was made from as `parent`; with
    // no id on that chain, inheriting from it changes nothing (same def, metadata already merged).
    const parent = internals.parent;
    if (ref !== undefined) {
      inherit(own, this.visit(ref), this.extracted.get(ref), false);
      if (parent !== undefined && parent !== ref && chainHasId(parent)) {
        const parentRef = this.visit(parent).$ref;
        if (parentRef) {
          own.$ref = parentRef;
          const body = this.extracted.get(parent);
          if (body !== undefined) dropInherited(own, body);
        }
      }
    } else if (parent !== undefined && chainHasId(parent)) {
      inherit(own, this.visit(parent), this.extracted.get(parent), true);
    }
    // The framework's override: a date is a date-time string.
    if (def.type === 'date') {
      own.type = 'string';
      own.format = 'date-time';
    }

    let use = own;
    if (id !== undefined) {
      const holder = this.ids.get(id);
      if (holder !== undefined && holder !== node) throw new IdConflict();
      this.ids.set(id, node);
      use = { $ref: LOCAL_DEFS + encodePointer(id) };
      this.defs[id] = own;
      this.extracted.set(node, own);
    }
    this.memo.set(node, use);
    this.stack.pop();
    if (own.anyOf !== undefined) this.unions.push(own);
    if (own.allOf !== undefined) this.carriers.push(own);
    return use;
  }

  private string(node: Node, json: JsonSchema): void {
    json.type = 'string';
    const { minimum, maximum, format, patterns, contentEncoding, laxFormat } = aggregateChecks(node);
    if (typeof minimum === 'number') json.minLength = finite(minimum);
    if (typeof maximum === 'number') json.maxLength = finite(maximum);
    if (format) {
      if (format in Object.prototype) throw new Unsupported('format name');
      json.format = FORMAT_NAMES.get(format) ?? format;
      if (json.format === '') delete json.format;
      if (format === 'time' || laxFormat) delete json.format;
    }
    if (contentEncoding) json.contentEncoding = contentEncoding;
    if (patterns && patterns.size > 0) {
      const list = [...patterns].map((pattern) => EXACT_PATTERNS.get(pattern) ?? pattern);
      if (list.length === 1) json.pattern = (list[0] as RegExp).source;
      else json.allOf = list.map((regex) => ({ pattern: regex.source }));
    }
  }

  private number(node: Node, json: JsonSchema): void {
    const { minimum, maximum, multipleOf, exclusiveMaximum, exclusiveMinimum, isInt } = aggregateChecks(node);
    json.type = isInt ? 'integer' : 'number';
    const exMin = typeof exclusiveMinimum === 'number' && exclusiveMinimum >= ((minimum as number | undefined) ?? Number.NEGATIVE_INFINITY);
    const exMax = typeof exclusiveMaximum === 'number' && exclusiveMaximum <= ((maximum as number | undefined) ?? Number.POSITIVE_INFINITY);
    if (exMin) json.exclusiveMinimum = finite(exclusiveMinimum);
    else if (typeof minimum === 'number') json.minimum = finite(minimum);
    if (exMax) json.exclusiveMaximum = finite(exclusiveMaximum);
    else if (typeof maximum === 'number') json.maximum = finite(maximum);
    if (multipleOf) {
      const divisors = new Set<number>();
      for (const divisor of multipleOf) {
        if (typeof divisor === 'number' && Number.isFinite(divisor) && divisor !== 0) divisors.add(Math.abs(divisor));
        else throw new Unsupported('multipleOf divisor');
      }
      const [first, ...rest] = divisors;
      if (first !== undefined) json.multipleOf = first;
      if (rest.length) json.allOf = [...((json.allOf as JsonSchema[] | undefined) ?? []), ...rest.map((m) => ({ multipleOf: m }))];
    }
  }

  private enumeration(def: Def, json: JsonSchema): void {
    const entries = def.entries as Record<string, string | number>;
    // With no numeric values, zod's getEnumValues is just the values (no reverse mapping to drop).
    const raw = Object.values(entries);
    const values = raw.every((v) => typeof v === 'string') ? raw : getEnumValues(entries).map(primitive);
    if (values.length === 0) {
      json.not = {};
      return;
    }
    if (values.every((v) => typeof v === 'number')) json.type = 'number';
    if (values.every((v) => typeof v === 'string')) json.type = 'string';
    json.enum = values;
  }

  private literal(def: Def, json: JsonSchema): void {
    const raw = def.values as readonly unknown[];
    if (raw.length === 0) {
      json.not = {};
      return;
    }
    const values = raw.map((value) => {
      if (value === undefined || typeof value === 'bigint') throw new Unsupported('literal value');
      return primitive(value);
    });
    if (values.length === 1) {
      const value = values[0];
      json.type = value === null ? 'null' : typeof value;
      json.const = value;
    } else {
      if (values.every((v) => typeof v === 'number')) json.type = 'number';
      if (values.every((v) => typeof v === 'string')) json.type = 'string';
      if (values.every((v) => typeof v === 'boolean')) json.type = 'boolean';
      if (values.every((v) => v === null)) json.type = 'null';
      json.enum = values;
    }
  }

  private array(node: Node, def: Def, json: JsonSchema): void {
    const { minimum, maximum } = aggregateChecks(node);
    if (typeof minimum === 'number') json.minItems = finite(minimum);
    if (typeof maximum === 'number') json.maxItems = finite(maximum);
    json.type = 'array';
    json.items = this.visit(def.element as Node);
  }

  private object(def: Def, json: JsonSchema): void {
    const shape = def.shape as Record<string, Node>;
    if (Object.getOwnPropertySymbols(shape).length > 0) throw new Unsupported('symbol keys');
    json.type = 'object';
    const properties: JsonSchema = {};
    json.properties = properties;
    const required: string[] = [];
    const input = this.side === 'input';
    for (const key in shape) {
      if (key === '__proto__') throw new Unsupported('__proto__ key');
      const field = shape[key] as Node;
      properties[key] = this.visit(field);
      if (input ? inputOptin(field) === undefined : field._zod.optout === undefined) required.push(key);
    }
    if (required.length > 0) json.required = required;
    const catchall = def.catchall;
    if (catchall?._zod.def.type === 'never') json.additionalProperties = false;
    else if (!catchall) {
      if (!input) json.additionalProperties = false;
    } else json.additionalProperties = this.visit(catchall);
  }

  private tuple(node: Node, def: Def, json: JsonSchema): void {
    json.type = 'array';
    const items = def.items as readonly Node[];
    const prefixItems = items.map((item) => this.visit(item));
    const rest = def.rest ? this.visit(def.rest) : null;
    let minItems = items.length;
    while (minItems > 0) {
      const item = items[minItems - 1] as Node;
      const optional = this.side === 'input' ? inputOptin(item) !== undefined : item._zod.optout === 'optional';
      if (!optional) break;
      minItems--;
    }
    json.prefixItems = prefixItems;
    if (!def.rest) json.items = false;
    else if (rest) json.items = rest;
    if (minItems > 0) json.minItems = minItems;
    if (!def.rest) json.maxItems = items.length;
    const { minimum, maximum } = aggregateChecks(node);
    if (typeof minimum === 'number') json.minItems = finite(minimum);
    if (typeof maximum === 'number') json.maxItems = finite(maximum);
  }

  private record(def: Def, json: JsonSchema): void {
    const keyType = def.keyType as Node;
    const keyKind = keyType._zod.def.type;
    const keyValues = keyType._zod.values;
    // Numeric keys are rewritten by a zod pass this does not model; string keys never are.
    if (keyKind !== 'string' && !((keyKind === 'enum' || keyKind === 'literal') && keyValues && [...keyValues].every((v) => typeof v === 'string'))) {
      throw new Unsupported('record key');
    }
    json.type = 'object';
    const patterns = aggregateChecks(keyType).patterns;
    if (def.mode === 'loose' && patterns && patterns.size > 0) {
      // Only keys matching a pattern are validated: patternProperties (the key schema is not visited).
      const value = this.visit(def.valueType as Node);
      const patternProperties: JsonSchema = {};
      json.patternProperties = patternProperties;
      for (const pattern of patterns) {
        Object.defineProperty(patternProperties, (EXACT_PATTERNS.get(pattern) ?? pattern).source, { value, writable: true, enumerable: true, configurable: true });
      }
    } else {
      json.propertyNames = this.visit(keyType);
      json.additionalProperties = this.visit(def.valueType as Node);
    }
    const omittableOnInput = this.side === 'input' && inputOptin(def.valueType as Node) !== undefined;
    if (keyValues && !def.partial && !omittableOnInput) {
      const keys = [...keyValues].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
      if (keys.length > 0) json.required = keys.map(String);
    }
  }
}

const NONE = Symbol('none');
const ACTIVE = Symbol('active');

/** Copies metadata onto a node's JSON (zod's `assignProps`); returns its id, if any. */
function applyMeta(json: JsonSchema, meta: Record<PropertyKey, unknown>): string | undefined {
  let id: string | undefined;
  for (const key of Reflect.ownKeys(meta)) {
    if (typeof key === 'symbol' || !Object.prototype.propertyIsEnumerable.call(meta, key)) continue;
    if (ALGORITHM_KEYS.has(key) || key in Object.prototype) throw new Unsupported(`metadata key ${key}`);
    const value = meta[key];
    if (key === 'id') {
      if (typeof value !== 'string' || value === '' || value === '__proto__') throw new Unsupported('id');
      id = value;
    }
    json[key] = jsonValue(value);
  }
  return id;
}

/** A value as zod's final JSON round trip leaves it; values the round trip would drop are unsupported. */
function jsonValue(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    throw new Unsupported('metadata value');
  }
  if (text === undefined) throw new Unsupported('metadata value');
  return JSON.parse(text);
}

/** A literal or enum value, as JSON keeps it. */
function primitive(value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Unsupported('non-finite value');
    return value + 0; // -0 is 0 in JSON
  }
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  throw new Unsupported('literal value');
}

function finite(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Unsupported('non-finite bound');
  return value + 0;
}

/** zod's `serializeDefaultValue`: the default round-tripped through JSON. */
function serializeDefault(value: unknown): unknown {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value + 0 : null;
  let bigint = false;
  const text = JSON.stringify(value, (_, v: unknown) => {
    if (typeof v !== 'bigint') return v;
    bigint = true;
    return null;
  });
  if (bigint) throw new Unsupported('bigint default');
  if (text === undefined) throw new Unsupported('default without a JSON form');
  return JSON.parse(text);
}

/** zod's `inputOptin`: transforms and catch resolve to the schema carrying the optionality. */
function inputOptin(node: Node): 'optional' | 'defaulted' | undefined {
  const def = node._zod.def;
  if (def.type === 'pipe' && (def.in as Node)._zod.traits.has('$ZodTransform')) return inputOptin(def.out as Node);
  if (def.type === 'catch') return inputOptin(def.innerType as Node);
  return node._zod.optin as 'optional' | undefined;
}

function chainHasId(start: Node): boolean {
  for (let node: Node | undefined = start; node !== undefined; node = node._zod.parent) {
    if (registry._map.get(node)?.id) return true;
  }
  return false;
}

function isOnlyAllOf(json: JsonSchema): boolean {
  let only = false;
  for (const key in json) {
    if (key !== 'allOf') return false;
    only = true;
  }
  return only;
}

/**
 * zod's `flattenRef` for one node: the keywords of what it wraps (or its parent) join its own,
 * its own winning; from a parent only `$ref` and `allOf` survive; and keywords equal to an
 * extracted def's are dropped, the `$ref` standing for them.
 */
function inherit(json: JsonSchema, source: JsonSchema, body: JsonSchema | undefined, fromParent: boolean): void {
  for (const key in source) {
    if (key in json) continue;
    if (!fromParent || key === '$ref' || key === 'allOf') json[key] = source[key];
  }
  if (body !== undefined) dropInherited(json, body);
}

function dropInherited(json: JsonSchema, def: JsonSchema): void {
  for (const key in json) {
    if (key === '$ref' || key === 'allOf') continue;
    if (key in def && JSON.stringify(json[key]) === JSON.stringify(def[key])) delete json[key];
  }
}

function encodePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

interface Aggregate {
  minimum?: unknown;
  maximum?: unknown;
  exclusiveMinimum?: unknown;
  exclusiveMaximum?: unknown;
  multipleOf?: unknown[];
  format?: string;
  isInt?: boolean;
  patterns?: Set<RegExp>;
  contentEncoding?: string;
  laxFormat?: boolean;
}
/* eslint-disable @typescript-eslint/no-explicit-any -- comparisons mirror zod's, on whatever a check holds */
const narrowMin = (agg: Aggregate, key: 'minimum' | 'exclusiveMinimum', value: unknown): void => {
  if (agg[key] === undefined || (value as any) > (agg[key] as any)) agg[key] = value;
};
const narrowMax = (agg: Aggregate, key: 'maximum' | 'exclusiveMaximum', value: unknown): void => {
  if (agg[key] === undefined || (value as any) < (agg[key] as any)) agg[key] = value;
};
/* eslint-enable @typescript-eslint/no-explicit-any */
const setFormat = (agg: Aggregate, format: string): void => {
  agg.format = format;
  if (format.includes('int')) agg.isInt = true;
};
const addDivisor = (agg: Aggregate, value: unknown): void => {
  agg.multipleOf ??= [];
  if (!agg.multipleOf.includes(value)) agg.multipleOf.push(value);
};
const addPattern = (agg: Aggregate, pattern: RegExp): void => {
  agg.patterns ??= new Set();
  agg.patterns.add(pattern);
};

/** zod's `aggregateChecks`: the conjunction of a schema's checks, reconciled with its bag. */
function aggregateChecks(node: Node): Aggregate {
  const internals = node._zod;
  const def = internals.def;
  if ((def.checks === undefined || def.checks.length === 0) && isEmpty(internals.bag) && !internals.traits.has('$ZodCheck')) return NO_CHECKS;
  const agg: Aggregate = {};
  // a format schema is its own first check
  if (internals.traits.has('$ZodCheck')) contribute(agg, def);
  const checks = def.checks;
  if (checks !== undefined) for (const check of checks) contribute(agg, check._zod.def);
  const bag = internals.bag;
  if (bag.minimum !== undefined) narrowMin(agg, 'minimum', bag.minimum);
  if (bag.exclusiveMinimum !== undefined) narrowMin(agg, 'exclusiveMinimum', bag.exclusiveMinimum);
  if (bag.maximum !== undefined) narrowMax(agg, 'maximum', bag.maximum);
  if (bag.exclusiveMaximum !== undefined) narrowMax(agg, 'exclusiveMaximum', bag.exclusiveMaximum);
  if (bag.multipleOf !== undefined) addDivisor(agg, bag.multipleOf);
  if (bag.format !== undefined) {
    agg.format ??= bag.format;
    if (bag.format.includes('int')) agg.isInt = true;
  }
  if ((bag as { mime?: unknown }).mime) throw new Unsupported('mime types');
  for (const pattern of bag.patterns ?? []) addPattern(agg, pattern);
  return agg;
}

const NO_CHECKS: Aggregate = Object.freeze({});

function isEmpty(bag: object): boolean {
  for (const _ in bag) return false;
  return true;
}

function contribute(agg: Aggregate, def: Def): void {
  switch (def.check) {
    case 'greater_than':
      narrowMin(agg, def.inclusive ? 'minimum' : 'exclusiveMinimum', def.value);
      break;
    case 'less_than':
      narrowMax(agg, def.inclusive ? 'maximum' : 'exclusiveMaximum', def.value);
      break;
    case 'multiple_of':
      addDivisor(agg, def.value);
      break;
    case 'number_format': {
      setFormat(agg, def.format as string);
      const range = NUMBER_FORMAT_RANGES[def.format as string];
      if (range === undefined) throw new Unsupported('number format');
      narrowMin(agg, 'minimum', range[0]);
      narrowMax(agg, 'maximum', range[1]);
      break;
    }
    case 'min_length':
    case 'min_size':
      narrowMin(agg, 'minimum', def.minimum);
      break;
    case 'max_length':
    case 'max_size':
      narrowMax(agg, 'maximum', def.maximum);
      break;
    case 'length_equals':
      narrowMin(agg, 'minimum', def.length);
      narrowMax(agg, 'maximum', def.length);
      break;
    case 'size_equals':
      narrowMin(agg, 'minimum', def.size);
      narrowMax(agg, 'maximum', def.size);
      break;
    case 'string_format':
      setFormat(agg, def.format as string);
      if (def.pattern) addPattern(agg, def.pattern);
      if (def.format === 'base64' || def.format === 'base64url') agg.contentEncoding = def.format;
      if (def.local || def.precision === -1) agg.laxFormat = true;
      break;
    case 'bigint_format':
    case 'mime_type':
      throw new Unsupported(def.check);
    default:
      // refinements, overwrites and other checks have no JSON Schema form
      break;
  }
}

/** zod's `compactTypeUnion`: `anyOf` of bare `{ type }` branches becomes a `type` array. */
function compactTypeUnion(schema: JsonSchema): void {
  const options = schema.anyOf;
  if (!Array.isArray(options) || options.length === 0 || schema.type !== undefined) return;
  const types: unknown[] = [];
  for (const option of options as unknown[]) {
    if (!option || typeof option !== 'object') return;
    compactTypeUnion(option as JsonSchema);
    const keys = Object.keys(option);
    if (keys.length !== 1 || keys[0] !== 'type') return;
    const type = (option as JsonSchema).type;
    for (const member of Array.isArray(type) ? type : [type]) {
      if (typeof member !== 'string') return;
      if (!types.includes(member)) types.push(member);
    }
  }
  delete schema.anyOf;
  schema.type = types.length === 1 ? types[0] : types;
}

const FOLDABLE_KEYS = new Set(['type', 'properties', 'required', 'additionalProperties']);
const UNION_KEYS = ['oneOf', 'anyOf'] as const;

function undeclaredConstraint(member: JsonSchema): JsonSchema | null {
  const extra = member.additionalProperties;
  if (extra === undefined || extra === false || typeof extra !== 'object' || extra === null) return null;
  return Object.keys(extra).length ? (extra as JsonSchema) : null;
}

/** zod's `foldObjects`, verbatim in effect. */
function foldObjects(members: unknown[]): JsonSchema | null {
  const objects: JsonSchema[] = [];
  for (const member of members) {
    if (typeof member !== 'object' || member === null || (member as JsonSchema).type !== 'object') return null;
    for (const key in member) if (!FOLDABLE_KEYS.has(key)) return null;
    objects.push(member as JsonSchema);
  }
  const properties: Record<string, unknown> = {};
  const required = new Set<string>();
  for (const object of objects) {
    for (const key in object.properties as Record<string, unknown> | undefined) {
      if (Object.prototype.hasOwnProperty.call(properties, key)) continue;
      const parts: unknown[] = [];
      for (const other of objects) {
        const part = (other.properties as Record<string, unknown> | undefined)?.[key] ?? undeclaredConstraint(other);
        if (part === null || part === undefined) continue;
        if (!parts.some((seen) => JSON.stringify(seen) === JSON.stringify(part))) parts.push(part);
      }
      // A key named like an `Object.prototype` member (`constructor`) makes zod read that member
      // as a part; zod's final JSON round trip turns it into `null`, so it is `null` here.
      const merged = parts.length === 1 ? parts[0] : (foldObjects(parts) ?? { allOf: parts.map((part) => (typeof part === 'function' ? null : part)) });
      Object.defineProperty(properties, key, { value: merged, writable: true, enumerable: true, configurable: true });
    }
    for (const key of (object.required as string[] | undefined) ?? []) required.add(key);
  }
  const folded: JsonSchema = { type: 'object', properties };
  if (required.size) folded.required = [...required];
  if (objects.every((object) => object.additionalProperties === false)) {
    folded.additionalProperties = false;
  } else {
    const constraints: JsonSchema[] = [];
    for (const object of objects) {
      const constraint = undeclaredConstraint(object);
      if (constraint && !constraints.some((seen) => JSON.stringify(seen) === JSON.stringify(constraint))) constraints.push(constraint);
    }
    if (constraints.length === 1) folded.additionalProperties = constraints[0];
    else if (constraints.length > 1) folded.additionalProperties = { allOf: constraints };
  }
  return folded;
}

/** zod's `foldIntersection`: an `allOf` of objects becomes the one object they describe. */
function foldIntersection(json: JsonSchema): void {
  const allOf = json.allOf;
  if (!Array.isArray(allOf) || allOf.length < 2) return;
  for (const key of FOLDABLE_KEYS) if (key in json) return;
  const unions = (allOf as JsonSchema[]).filter((m) => UNION_KEYS.some((k) => Array.isArray(m[k])));
  let folded: JsonSchema | null = null;
  if (!unions.length) {
    folded = foldObjects(allOf);
  } else {
    const union = unions[0] as JsonSchema;
    const keyword = UNION_KEYS.find((k) => Array.isArray(union[k])) as (typeof UNION_KEYS)[number];
    if (Object.keys(union).length !== 1) return;
    const rest = (allOf as JsonSchema[]).filter((m) => m !== union);
    const branches = (union[keyword] as unknown[]).map((branch) => foldObjects([...rest, branch]));
    if (branches.some((b) => !b)) return;
    folded = { [keyword]: branches };
  }
  if (!folded) return;
  delete json.allOf;
  for (const key of Object.keys(folded)) json[key] = folded[key];
}

