import type { JsonSchema } from './openapi-document.js';

// What a conversion gives back, and the reading of local `$ref`s that placing it needs.

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

/** zod's local ids for schemas extracted only to break a cycle; every other def has a user id. */
const ANONYMOUS_DEF = /^__schema\d+$/;
export const LOCAL_DEFS = '#/$defs/';

/**
 * Whether a def name came from zod (a cycle without an id) rather than from `.meta({ id })`.
 *
 * @example
 * isAnonymousDef('__schema0'); // true
 */
export function isAnonymousDef(name: string): boolean {
  return ANONYMOUS_DEF.test(name);
}

export const NONE: readonly string[] = Object.freeze([]);


/** The local defs a JSON refers to, in the order `inspect` finds them (a fast conversion has no marks). */
export function localRefs(value: unknown, into: string[]): string[] {
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

/** The defs reachable from `start` through `defRefs`, `start` included. */
export function reachable(start: readonly string[], defRefs: Readonly<Record<string, readonly string[]>>): string[] {
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

/** Fast roots with one scope holding every def of their run (a fast conversion has no problems). */
export function fastResults(run: { readonly defs: Readonly<Record<string, JsonSchema>> }, roots: readonly JsonSchema[]): ConvertedSchema[] {
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
