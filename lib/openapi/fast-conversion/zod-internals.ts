import { z } from 'zod';

// The view of zod's internals is declared once, in the core (lib/schema/zod-internals.ts).
export type { ZodInternals as Internals, ZodNode as Node, ZodDef as Def, ZodBag as Bag } from '../../internal/schema.js';
import type { ZodNode as Node } from '../../internal/schema.js';

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
