import { z } from 'zod';

/** The parts of a zod 4 schema's (or check's) internals this reads. */
export interface Internals {
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
export interface Node {
  readonly _zod: Internals;
}
export interface Def {
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
export interface Bag {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly format?: string;
  readonly patterns?: Set<RegExp>;
}

export const registry = z.globalRegistry as unknown as {
  get(schema: unknown): Record<PropertyKey, unknown> | undefined;
  readonly _map: WeakMap<object, Record<PropertyKey, unknown> | undefined>;
};
export const NUMBER_FORMAT_RANGES = z.core.util.NUMBER_FORMAT_RANGES as Record<string, [number, number] | undefined>;
export const getEnumValues = z.core.util.getEnumValues as (entries: Record<string, string | number>) => unknown[];
export const EXACT_PATTERNS = new Map<RegExp, RegExp>([
  [z.core.base64Charset, z.core.regexes.base64],
  [z.core.base64urlCharset, z.core.regexes.base64url],
]);
export const FORMAT_NAMES: ReadonlyMap<string, string> = new Map([
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
export const ALGORITHM_KEYS = new Set(['type', 'anyOf', 'oneOf', 'allOf', '$ref', '_prefault', 'properties', 'required', 'additionalProperties', 'propertyNames', 'enum', 'const']);

/** zod's `inputOptin`: transforms and catch resolve to the schema carrying the optionality. */
export function inputOptin(node: Node): 'optional' | 'defaulted' | undefined {
  const def = node._zod.def;
  if (def.type === 'pipe' && (def.in as Node)._zod.traits.has('$ZodTransform')) return inputOptin(def.out as Node);
  if (def.type === 'catch') return inputOptin(def.innerType as Node);
  return node._zod.optin as 'optional' | undefined;
}

export function chainHasId(start: Node): boolean {
  for (let node: Node | undefined = start; node !== undefined; node = node._zod.parent) {
    if (registry._map.get(node)?.id) return true;
  }
  return false;
}
