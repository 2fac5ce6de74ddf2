import type { JsonSchema } from '../openapi-document.js';
import { aggregateChecks } from './checks.js';
import { finite, primitive } from './json-shaping.js';
import { Unsupported } from './unsupported.js';
import { EXACT_PATTERNS, FORMAT_NAMES, getEnumValues, type Def, type Node } from './zod-internals.js';

// The node kinds whose JSON depends on the node alone (no child schema to visit): `Conversion`
// calls them as `scalar.string(node, json)` and so on.

export function string(node: Node, json: JsonSchema): void {
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

export function number(node: Node, json: JsonSchema): void {
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

export function enumeration(def: Def, json: JsonSchema): void {
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

export function literal(def: Def, json: JsonSchema): void {
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
