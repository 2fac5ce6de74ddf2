import type { SchemaSide } from '../internal.js';
import { toJSONSchema, z } from 'zod';
import type { Schema } from '../internal.js';
import { fastConvert } from './fast-conversion/index.js';
import type { JsonSchema } from './openapi-document.js';

/** Requests are documented from a schema's input side, responses from its output side. */

/**
 * The shared part of one zod conversion run: the schemas zod extracted into `$defs` (those with
 * `.meta({ id })`, and anonymous ones that break a cycle), with what each needs to be placed.
 */
export interface SchemaScope {
  readonly defs: Readonly<Record<string, JsonSchema>>;
  /** `JSON.stringify` of each def, to tell same-named schemas from different runs apart cheaply. */
  readonly defTexts: Readonly<Record<string, string>>;
  /** Unrepresentable parts inside each def. */
  readonly defProblems: Readonly<Record<string, readonly string[]>>;
  /** The defs each def refers to directly. */
  readonly defRefs: Readonly<Record<string, readonly string[]>>;
}

/**
 * One schema converted to JSON Schema, before it is placed in a document. References are still
 * zod's local ones (`#/$defs/<name>`, into `scope`); the document assembly rewrites them.
 */
export interface ConvertedSchema {
  readonly root: JsonSchema;
  readonly scope: SchemaScope;
  /** Unrepresentable parts of the root itself (documented as `{}`), as `path: reason`. */
  readonly problems: readonly string[];
  /** Every def the root reaches, directly or through other defs. */
  readonly reaches: readonly string[];
}

/**
 * Conversions are cached per schema object and side for the life of the schema (a WeakMap, so
 * nothing leaks): a schema shared by many routes, or many generations, is converted once. The
 * entries are mode-independent (problems are recorded, not acted on), so every
 * `onUnrepresentable` mode shares them; callers must not mutate what they get back.
 */
const cache = { input: new WeakMap<Schema, ConvertedSchema>(), output: new WeakMap<Schema, ConvertedSchema>() };

/** zod's local ids for schemas extracted only to break a cycle; every other def has a user id. */
const ANONYMOUS_DEF = /^__schema\d+$/;
const LOCAL_DEFS = '#/$defs/';
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
 * Converts zod schemas to JSON Schema 2020-12 with the framework's rules: `z.date()` is a
 * date-time string, other unrepresentable parts become `{}` and are recorded, `$schema` is
 * dropped, schemas with `.meta({ id })` come back as defs, and a schema that cannot be converted
 * at all becomes an open schema whose description says why.
 *
 * Uncached schemas are converted in one run, as if by one zod run over all of them. Most go
 * through a fast converter (`fast-conversion/`) that produces exactly zod's output for the node
 * kinds APIs are made of, several times faster; the rest go through zod, in one run, as the
 * properties of a synthetic object (zod has a large fixed cost per call and per visit, so one
 * run over everything is several times faster than a run per schema). If the combined run would
 * fail (two different schemas with one id, say), each schema is converted on its own, so a
 * failure stays with the schema that caused it.
 *
 * @example
 * const [converted] = convertSchemas([z.object({ at: z.date() })], 'output');
 * converted.root; // { type: 'object', properties: { at: { type: 'string', format: 'date-time' } }, ... }
 */
export function convertSchemas(schemas: readonly Schema[], side: SchemaSide): ConvertedSchema[] {
  const known = cache[side];
  const pending = [...new Set(schemas.filter((schema) => !known.has(schema)))];
  if (pending.length > 0) {
    const converted = fastEnabled ? convertPending(pending, side) : convertWithZod(pending, side);
    pending.forEach((schema, index) => known.set(schema, converted[index] as ConvertedSchema));
  }
  return schemas.map((schema) => known.get(schema) as ConvertedSchema);
}

/**
 * The fast converter mirrors zod 4.6's converter (`fast-conversion/`); under another zod minor
 * release every schema goes through zod until the equivalence property test has been run
 * against it and this is widened.
 */
const FAST_ZOD_MINOR = { major: 4, minor: 6 };
let fastEnabled = z.core.version.major === FAST_ZOD_MINOR.major && z.core.version.minor === FAST_ZOD_MINOR.minor;

/**
 * Turns the fast converter off (every schema then goes through zod) or back on; returns the
 * previous setting. For equivalence tests and benchmarks; conversions already cached stay.
 *
 * @example
 * const previous = useFastConversion(false);
 */
export function useFastConversion(enabled: boolean): boolean {
  const previous = fastEnabled;
  fastEnabled = enabled;
  return previous;
}

/** The old way: one zod run over all, else each alone. */
function convertWithZod(pending: readonly Schema[], side: SchemaSide): ConvertedSchema[] {
  try {
    return convertTogether(pending, side);
  } catch {
    return pending.map((schema) => convertAlone(schema, side));
  }
}

/**
 * The same result as `convertWithZod`, with the fast converter doing what it can. zod's
 * combined run fails when two different schemas share an id anywhere in it; then every schema is
 * converted alone. So: a clash among the fast ones means all alone; the rest go through one zod
 * run that also fails on a clash with an id the fast ones met. (A fast conversion is the same
 * alone or together: it has no cycle defs and no problems, the only things a shared scope changes.)
 */
function convertPending(pending: readonly Schema[], side: SchemaSide): ConvertedSchema[] {
  const run = fastConvert(pending, side);
  if (run === undefined) {
    return pending.map((schema) => {
      const alone = fastConvert([schema], side);
      const root = alone?.roots[0];
      return alone !== undefined && root !== undefined ? fastResults(alone, [root])[0] as ConvertedSchema : convertAlone(schema, side);
    });
  }
  const rest = pending.filter((_, index) => run.roots[index] === undefined);
  const fast = fastResults(run, run.roots.filter((root): root is JsonSchema => root !== undefined));
  if (rest.length === 0) return fast;
  let slow: ConvertedSchema[];
  try {
    slow = convertTogether(rest, side, run.ids);
  } catch {
    slow = rest.map((schema) => convertAlone(schema, side));
  }
  let nextFast = 0;
  let nextSlow = 0;
  return run.roots.map((root) => (root === undefined ? slow[nextSlow++] : fast[nextFast++]) as ConvertedSchema);
}

/** Fast roots with one scope holding every def of their run. */
function fastResults(run: { readonly defs: Readonly<Record<string, JsonSchema>> }, roots: readonly JsonSchema[]): ConvertedSchema[] {
  if (roots.length === 0) return [];
  const defs: Record<string, JsonSchema> = {};
  const defTexts: Record<string, string> = {};
  const defProblems: Record<string, readonly string[]> = {};
  const defRefs: Record<string, readonly string[]> = {};
  for (const name in run.defs) {
    const def = run.defs[name] as JsonSchema;
    defs[name] = def;
    defTexts[name] = JSON.stringify(def);
    defProblems[name] = NONE;
    defRefs[name] = localRefs(def, []);
  }
  const scope: SchemaScope = { defs, defTexts, defProblems, defRefs };
  return roots.map((root) => {
    const refs = localRefs(root, []);
    return { root, scope, problems: NONE, reaches: refs.length === 0 ? NONE : reachable(refs, defRefs) };
  });
}

const NONE: readonly string[] = Object.freeze([]);

/** The local defs a JSON refers to, in the order `inspect` finds them (a fast conversion has no marks). */
function localRefs(value: unknown, into: string[]): string[] {
  if (value === null || typeof value !== 'object') return into;
  if (Array.isArray(value)) {
    for (const item of value) localRefs(item, into);
    return into;
  }
  const record = value as Record<string, unknown>;
  const ref = record.$ref;
  if (typeof ref === 'string' && ref.startsWith(LOCAL_DEFS)) {
    const name = decodePointer(ref.slice(LOCAL_DEFS.length));
    if (!into.includes(name)) into.push(name);
  }
  for (const key in record) localRefs(record[key], into);
  return into;
}

/**
 * The conversion of one schema: from the cache when `convertSchemas` has already seen it.
 *
 * @example
 * convertSchema(Post, 'output').root;
 */
export function convertSchema(schema: Schema, side: SchemaSide): ConvertedSchema {
  return cache[side].get(schema) ?? (convertSchemas([schema], side)[0] as ConvertedSchema);
}

function convertAlone(schema: Schema, side: SchemaSide): ConvertedSchema {
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
function convertTogether(schemas: readonly Schema[], side: SchemaSide, claimed?: ReadonlyMap<string, unknown>): ConvertedSchema[] {
  const shape: Record<string, Schema> = {};
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

function reachable(start: readonly string[], defRefs: Readonly<Record<string, readonly string[]>>): string[] {
  const seen = new Set<string>();
  const stack = [...start];
  while (stack.length > 0) {
    const name = stack.pop() as string;
    if (seen.has(name)) continue;
    seen.add(name);
    stack.push(...(defRefs[name] ?? []));
  }
  return [...seen];
}

/**
 * A JSON Pointer segment decoded (`~1` is `/`, `~0` is `~`).
 *
 * @example
 * decodePointer('a~1b'); // 'a/b'
 */
export function decodePointer(segment: string): string {
  if (!segment.includes('~')) return segment;
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}
