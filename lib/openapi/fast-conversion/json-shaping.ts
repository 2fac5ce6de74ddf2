import type { JsonSchema } from '../openapi-document.js';
import { Unsupported } from './unsupported.js';
import { ALGORITHM_KEYS } from './zod-internals.js';

/** Copies metadata onto a node's JSON (zod's `assignProps`); returns its id, if any. */
export function applyMeta(json: JsonSchema, meta: Record<PropertyKey, unknown>): string | undefined {
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
export function jsonValue(value: unknown): unknown {
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
export function primitive(value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Unsupported('non-finite value');
    return value + 0; // -0 is 0 in JSON
  }
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return value;
  throw new Unsupported('literal value');
}

export function finite(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new Unsupported('non-finite bound');
  return value + 0;
}

/** zod's `serializeDefaultValue`: the default round-tripped through JSON. */
export function serializeDefault(value: unknown): unknown {
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

export function isOnlyAllOf(json: JsonSchema): boolean {
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
export function inherit(json: JsonSchema, source: JsonSchema, body: JsonSchema | undefined, fromParent: boolean): void {
  for (const key in source) {
    if (key in json) continue;
    if (!fromParent || key === '$ref' || key === 'allOf') json[key] = source[key];
  }
  if (body !== undefined) dropInherited(json, body);
}

export function dropInherited(json: JsonSchema, def: JsonSchema): void {
  for (const key in json) {
    if (key === '$ref' || key === 'allOf') continue;
    if (key in def && JSON.stringify(json[key]) === JSON.stringify(def[key])) delete json[key];
  }
}

export function encodePointer(segment: string): string {
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** zod's `compactTypeUnion`: `anyOf` of bare `{ type }` branches becomes a `type` array. */
export function compactTypeUnion(schema: JsonSchema): void {
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
export function foldIntersection(json: JsonSchema): void {
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
