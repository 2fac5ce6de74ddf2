import { Unsupported } from './unsupported.js';
import { NUMBER_FORMAT_RANGES, type Def, type Node } from './zod-internals.js';

export interface Aggregate {
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
export function aggregateChecks(node: Node): Aggregate {
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
