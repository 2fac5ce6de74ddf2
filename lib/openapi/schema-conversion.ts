import { toJSONSchema } from 'zod';
import type { Schema } from '../routing/route.js';
import type { JsonSchema } from './openapi-document.js';

/** Requests are documented from a schema's input side, responses from its output side. */
export type SchemaSide = 'input' | 'output';

/**
 * One schema converted to JSON Schema, before it is placed in a document. References are still
 * zod's local ones (`#/$defs/<name>`, or `#` for a root that refers to itself); the document
 * assembly rewrites them to `#/components/schemas/<name>`.
 */
export interface ConvertedSchema {
  readonly root: JsonSchema;
  readonly defs: Readonly<Record<string, JsonSchema>>;
  /** `JSON.stringify` of each def, to tell same-named schemas apart cheaply. */
  readonly defTexts: Readonly<Record<string, string>>;
  /** The root contains `$ref: '#'` and so must become a named component itself. */
  readonly selfReferencing: boolean;
  /** Parts JSON Schema cannot express, documented as open schemas (`{}`). */
  readonly problems: readonly string[];
}

/**
 * Conversions are cached per schema object and side for the life of the schema (a WeakMap, so
 * nothing leaks): a schema shared by many routes, or many generations, is converted once. The
 * entries are mode-independent (problems are recorded, not acted on), so every
 * `onUnrepresentable` mode can share them; callers must not mutate what they get back.
 */
const cache = new WeakMap<Schema, { input?: ConvertedSchema; output?: ConvertedSchema }>();

/** zod's local ids for schemas extracted only to break a cycle; every other def has a user id. */
const ANONYMOUS_DEF = /^__schema\d+$/;

/**
 * Whether a def name came from zod (a cycle without an id) rather than from `.meta({ id })`.
 *
 * @example
 * isAnonymousDef('__schema0'); // true
 */
export function isAnonymousDef(name: string): boolean {
  return ANONYMOUS_DEF.test(name);
}

/**
 * Converts a zod schema to JSON Schema 2020-12 with the framework's rules: `z.date()` is a
 * date-time string, other unrepresentable parts become `{}` and are recorded, `$schema` is
 * dropped, schemas with `.meta({ id })` come back as defs, and a schema that cannot be converted
 * at all becomes an open schema whose description says why.
 *
 * @example
 * convertSchema(z.object({ at: z.date() }), 'output').root;
 * // { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, ... }
 */
export function convertSchema(schema: Schema, side: SchemaSide): ConvertedSchema {
  let entry = cache.get(schema);
  if (!entry) cache.set(schema, (entry = {}));
  return (entry[side] ??= convertUncached(schema, side));
}

function convertUncached(schema: Schema, side: SchemaSide): ConvertedSchema {
  const problems: string[] = [];
  let result: JsonSchema;
  try {
    result = toJSONSchema(schema, {
      target: 'draft-2020-12',
      io: side,
      // The function form records every unrepresentable site and documents it as `{}`, so one
      // conversion serves all modes. A date is not a problem: `override` gives it its JSON form.
      unrepresentable: ({ zodSchema, path, message }) => {
        if (zodSchema._zod.def.type !== 'date') problems.push(`${formatPath(path)}: ${message}`);
        return 'any';
      },
      override: ({ zodSchema, jsonSchema }) => {
        if (zodSchema._zod.def.type === 'date') {
          jsonSchema.type = 'string';
          jsonSchema.format = 'date-time';
        }
      },
    }) as JsonSchema;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      root: { description: `Open schema: this schema could not be converted to JSON Schema (${reason}).` },
      defs: {},
      defTexts: {},
      selfReferencing: false,
      problems: [`(whole schema): could not be converted to JSON Schema: ${reason}`],
    };
  }
  const { $schema: _dropped, $defs, ...root } = result;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  const defTexts: Record<string, string> = {};
  for (const name of Object.keys(defs)) defTexts[name] = JSON.stringify(defs[name]);
  return { root, defs, defTexts, selfReferencing: JSON.stringify(root).includes('"$ref":"#"'), problems };
}

function formatPath(path: readonly (string | number)[]): string {
  return path.length === 0 ? '(root)' : path.join('.');
}
