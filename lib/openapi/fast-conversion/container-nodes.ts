import type { SchemaSide } from '../../internal/schema.js';
import type { JsonSchema } from '../openapi-document.js';
import { aggregateChecks } from './checks.js';
import { finite } from './json-shaping.js';
import { Unsupported } from './unsupported.js';
import { EXACT_PATTERNS, inputOptin, type Def, type Node } from './zod-internals.js';

// The container node kinds (array, object, tuple, record): their JSON is made of their parts',
// which the conversion visits.

/**
 * What the container kinds need from the conversion running them: the side, and the JSON of a part.
 *
 * @example
 * json.items = conversion.visit(def.element as Node);
 */
export interface Visitor {
  readonly side: SchemaSide;
  visit(node: Node): JsonSchema;
}

/** An array node's JSON: `items` and the length checks. */
export function arrayJson(conversion: Visitor, node: Node, def: Def, json: JsonSchema): void {
  const { minimum, maximum } = aggregateChecks(node);
  if (typeof minimum === 'number') json.minItems = finite(minimum);
  if (typeof maximum === 'number') json.maxItems = finite(maximum);
  json.type = 'array';
  json.items = conversion.visit(def.element as Node);
}

/** An object node's JSON: properties, `required` for the side, and what it does with other keys. */
export function objectJson(conversion: Visitor, def: Def, json: JsonSchema): void {
  const shape = def.shape as Record<string, Node>;
  if (Object.getOwnPropertySymbols(shape).length > 0) throw new Unsupported('symbol keys');
  json.type = 'object';
  const properties: JsonSchema = {};
  json.properties = properties;
  const required: string[] = [];
  const input = conversion.side === 'input';
  for (const key in shape) {
    if (key === '__proto__') throw new Unsupported('__proto__ key');
    const field = shape[key] as Node;
    properties[key] = conversion.visit(field);
    if (input ? inputOptin(field) === undefined : field._zod.optout === undefined) required.push(key);
  }
  if (required.length > 0) json.required = required;
  const catchall = def.catchall;
  if (catchall?._zod.def.type === 'never') json.additionalProperties = false;
  else if (!catchall) {
    if (!input) json.additionalProperties = false;
  } else json.additionalProperties = conversion.visit(catchall);
}

/** A tuple node's JSON: `prefixItems`, a rest or none, and the lengths. */
export function tupleJson(conversion: Visitor, node: Node, def: Def, json: JsonSchema): void {
  json.type = 'array';
  const items = def.items as readonly Node[];
  const prefixItems = items.map((item) => conversion.visit(item));
  const rest = def.rest ? conversion.visit(def.rest) : null;
  let minItems = items.length;
  while (minItems > 0) {
    const item = items[minItems - 1] as Node;
    const optional = conversion.side === 'input' ? inputOptin(item) !== undefined : item._zod.optout === 'optional';
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

/** A record node's JSON: `propertyNames`/`additionalProperties`, or `patternProperties` for loose pattern keys. */
export function recordJson(conversion: Visitor, def: Def, json: JsonSchema): void {
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
    const value = conversion.visit(def.valueType as Node);
    const patternProperties: JsonSchema = {};
    json.patternProperties = patternProperties;
    for (const pattern of patterns) {
      Object.defineProperty(patternProperties, (EXACT_PATTERNS.get(pattern) ?? pattern).source, { value, writable: true, enumerable: true, configurable: true });
    }
  } else {
    json.propertyNames = conversion.visit(keyType);
    json.additionalProperties = conversion.visit(def.valueType as Node);
  }
  const omittableOnInput = conversion.side === 'input' && inputOptin(def.valueType as Node) !== undefined;
  if (keyValues && !def.partial && !omittableOnInput) {
    const keys = [...keyValues].filter((v): v is string | number => typeof v === 'string' || typeof v === 'number');
    if (keys.length > 0) json.required = keys.map(String);
  }
}
