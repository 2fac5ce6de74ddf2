import type { SchemaSide } from '../internal/schema.js';
import { toJSONSchema, z } from 'zod';
import { decodePointer, LOCAL_DEFS, reachable, type ConvertedSchema, type SchemaScope } from './converted-schema.js';
import type { JsonSchema } from './openapi-document.js';

// Conversion through zod's own `toJSONSchema`, with the framework's rules: dates as date-time
// strings, unrepresentable parts recorded (marked during the run, found and removed after it).

/** Set by `override` on the JSON of an unrepresentable part, found and removed afterwards. */
const MARK = '~tessera:unrepresentable';

let tracking: boolean | undefined;

/**
 * Whether the installed zod reports unrepresentable parts to a function (`unrepresentable:
 * (ctx) => ...`, added during zod 4; 4.6 has it). Older 4.x releases treat the function like
 * `'any'` and report nothing, which `open` mode can live with but `warn` and `throw` cannot.
 *
 * @example
 * if (!tracksUnrepresentable()) console.warn('upgrade zod to report unrepresentable schemas');
 */
export function tracksUnrepresentable(): boolean {
  if (tracking === undefined) {
    let called = false;
    try {
      toJSONSchema(z.bigint(), { unrepresentable: () => ((called = true), 'any') });
    } catch {
      called = false;
    }
    tracking = called;
  }
  return tracking;
}

/** One zod run over all, else each alone (a failure stays with the schema that caused it). */
export function convertWithZod(pending: readonly z.ZodType[], side: SchemaSide): ConvertedSchema[] {
  try {
    return convertTogether(pending, side);
  } catch {
    return pending.map((schema) => convertAlone(schema, side));
  }
}

/** One schema in its own zod run; a schema zod cannot convert becomes an open schema that says why. */
export function convertAlone(schema: z.ZodType, side: SchemaSide): ConvertedSchema {
  try {
    return convertTogether([schema], side)[0] as ConvertedSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      root: { description: `Open schema: this schema could not be converted to JSON Schema (${reason}).` },
      scope: { defs: {}, defTexts: {}, defProblems: {}, defRefs: {} },
      problems: [`(whole schema): could not be converted to JSON Schema: ${reason}`],
      reaches: [],
    };
  }
}

/**
 * One zod run over `schemas`. Throws if zod does, and if the run meets an id that `claimed` holds
 * for a different schema (the fast converter's, which a single zod run would have clashed with).
 */
export function convertTogether(schemas: readonly z.ZodType[], side: SchemaSide, claimed?: ReadonlyMap<string, unknown>): ConvertedSchema[] {
  const shape: Record<string, z.ZodType> = {};
  schemas.forEach((schema, index) => (shape[`s${index}`] = schema));
  const unrepresentable = new Map<unknown, string>();
  let clash: string | undefined;
  const result = toJSONSchema(z.object(shape), {
    target: 'draft-2020-12',
    io: side,
    // The function form records every unrepresentable site and documents it as `{}`. A date is
    // not a problem: `override` gives it its JSON form.
    unrepresentable: ({ zodSchema, message }) => {
      if (zodSchema._zod.def.type !== 'date') {
        const earlier = unrepresentable.get(zodSchema);
        unrepresentable.set(zodSchema, earlier === undefined ? message : `${earlier}; ${message}`);
      }
      return 'any';
    },
    // Runs on each part's final JSON, which every parent holds or copies: marking it there is
    // how a problem is traced to exactly the schemas (and paths) that contain it.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema._zod.def.type === 'date') {
        jsonSchema.type = 'string';
        jsonSchema.format = 'date-time';
      }
      const problem = unrepresentable.get(zodSchema);
      if (problem !== undefined) (jsonSchema as Record<string, unknown>)[MARK] = problem;
      if (claimed !== undefined && claimed.size > 0) {
        const id = ownId(zodSchema);
        if (id !== undefined && claimed.has(id) && claimed.get(id) !== zodSchema) clash = id;
      }
    },
  }) as JsonSchema;
  if (clash !== undefined) throw new Error(`Duplicate schema id "${clash}"`);

  const rawDefs = (result.$defs ?? {}) as Record<string, JsonSchema>;
  const defs: Record<string, JsonSchema> = {};
  const defTexts: Record<string, string> = {};
  const defProblems: Record<string, string[]> = {};
  const defRefs: Record<string, string[]> = {};
  for (const [name, def] of Object.entries(rawDefs)) {
    const found = inspect(def);
    defs[name] = def;
    defTexts[name] = JSON.stringify(def);
    defProblems[name] = found.problems;
    defRefs[name] = found.refs;
  }
  const scope: SchemaScope = { defs, defTexts, defProblems, defRefs };
  const properties = (result.properties ?? {}) as Record<string, JsonSchema>;
  return schemas.map((_, index) => {
    const root = properties[`s${index}`] ?? {};
    const found = inspect(root);
    return { root, scope, problems: found.problems, reaches: reachable(found.refs, defRefs) };
  });
}

/** The id a schema's own `.meta()` gives it (zod's duplicate check reads exactly this). */
function ownId(schema: unknown): string | undefined {
  const id = (z.globalRegistry as unknown as { _map: WeakMap<object, { id?: unknown } | undefined> })._map.get(schema as object)?.id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/** Strips problem marks (recording where they were) and lists the local defs referred to. */
function inspect(json: JsonSchema): { problems: string[]; refs: string[] } {
  const problems: string[] = [];
  const refs = new Set<string>();
  // The path is a stack joined only when a mark is found: most walks find none.
  const path: string[] = [];
  const walk = (value: unknown): void => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        path.push(String(index));
        walk(value[index]);
        path.pop();
      }
      return;
    }
    const record = value as Record<string, unknown>;
    const mark = record[MARK];
    if (typeof mark === 'string') {
      problems.push(`${path.length === 0 ? '(root)' : path.join('.')}: ${mark}`);
      delete record[MARK];
    }
    const ref = record.$ref;
    if (typeof ref === 'string' && ref.startsWith(LOCAL_DEFS)) refs.add(decodePointer(ref.slice(LOCAL_DEFS.length)));
    for (const key in record) {
      path.push(key);
      walk(record[key]);
      path.pop();
    }
  };
  walk(json);
  return { problems, refs: [...refs] };
}
