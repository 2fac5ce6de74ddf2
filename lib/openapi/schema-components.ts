import type { JsonSchema } from './openapi-document.js';
import { decodePointer, isAnonymousDef, type ConvertedSchema, type SchemaScope } from './converted-schema.js';
import type { SchemaSide } from '../internal/schema.js';

/**
 * Places converted schemas in one document: decides the `components.schemas` name of every
 * schema registered with an id, rewrites zod's local references to `#/components/schemas/...`,
 * and emits exactly the components that something references.
 *
 * Naming rules:
 * - a schema with `.meta({ id: 'Post' })` becomes `Post`;
 * - when its input side differs from its output side (defaults, transforms, object strictness),
 *   the output side is `Post` and the input side `PostInput`;
 * - two different schemas with the same id: the second becomes `Post_2`, reported as a problem;
 * - a recursive schema without an id is named after its first use
 *   (`PostsController_create_body`), since OpenAPI has no other place to refer to it from.
 */
export interface SchemaComponents {
  /** First pass: registers the named schemas a conversion brings, on the side it is used. */
  collect(converted: ConvertedSchema, side: SchemaSide, where: string): void;
  /** Between the passes: settles every name (input and output sides must both be known). */
  assignNames(): void;
  /** Second pass: the document form of a conversion's root. `hint` names anonymous parts. */
  place(converted: ConvertedSchema, hint: string): JsonSchema;
  /**
   * The document form of a request body's root. Like `place`, except that a named root whose
   * optional properties carry a `default` is written inline: client generators such as
   * openapi-typescript read `default` inside `components.schemas` as "always present" (true of
   * a response, false of a request), so a `$ref` would make defaulted request fields required.
   */
  placeRequestBody(converted: ConvertedSchema, hint: string): JsonSchema;
  /** The document form of a part of a conversion (a query property, say). */
  placePart(converted: ConvertedSchema, part: unknown, hint: string): JsonSchema;
  /** The body a root `$ref` to one of the conversion's own defs points at, else the root. */
  dereferenceRoot(converted: ConvertedSchema): JsonSchema;
  /** The emitted schemas, by name (the caller adds `Problem` under its reserved name). */
  readonly schemas: Record<string, JsonSchema>;
}

interface Variant {
  readonly id: string;
  readonly text: string;
  readonly json: JsonSchema;
  readonly scope: SchemaScope;
  readonly sides: Set<SchemaSide>;
  readonly where: string;
  name?: string;
}

const COMPONENTS = '#/components/schemas/';
const LOCAL_DEFS = '#/$defs/';
/** Keywords whose values are data, not schemas: a `$ref` string in there is not a reference. */
const LITERALS = new Set(['const', 'enum', 'default', 'examples', 'example']);
/** Keywords whose values map names to schemas: their keys are names, never keywords. */
const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/**
 * A component name OpenAPI accepts (`^[A-Za-z0-9._-]+$`).
 *
 * @example
 * componentName('blog/Post'); // 'blog_Post'
 */
export function componentName(raw: string): string {
  return raw.replace(/[^A-Za-z0-9._-]/g, '_') || '_';
}

/**
 * Creates the per-document placement state. `reserved` pre-claims names (`Problem`) with their
 * JSON text; `report` receives naming conflicts.
 *
 * @example
 * const components = createSchemaComponents({ Problem: JSON.stringify(problemSchema()) }, report);
 */
export function createSchemaComponents(
  reserved: Readonly<Record<string, string>>,
  report: (where: string, message: string) => void,
): SchemaComponents {
  const schemas: Record<string, JsonSchema> = {};
  const taken = new Map<string, string>(Object.entries(reserved));
  const emitted = new Set<string>();
  const variants = new Map<string, Variant[]>();
  const anonymous = new WeakMap<SchemaScope, Map<string, string>>();

  /** The name itself if free or holding the same JSON, else the first free `name_<n>`. */
  const claim = (preferred: string, text: string): string => {
    for (let n = 1; ; n++) {
      const name = n === 1 ? preferred : `${preferred}_${n}`;
      const holder = taken.get(name);
      if (holder === undefined) {
        taken.set(name, text);
        return name;
      }
      if (holder === text) return name;
    }
  };

  const register = (scope: SchemaScope, id: string, side: SchemaSide, where: string): Variant => {
    const text = scope.defTexts[id] as string;
    let list = variants.get(id);
    if (!list) variants.set(id, (list = []));
    let variant = list.find((v) => v.text === text);
    if (!variant) list.push((variant = { id, text, json: scope.defs[id] as JsonSchema, scope, sides: new Set(), where }));
    variant.sides.add(side);
    return variant;
  };

  const nameVariants = (id: string, list: readonly Variant[]): void => {
    const base = componentName(id);
    const primary = list.find((v) => v.sides.has('output')) ?? (list[0] as Variant);
    let inputNamed = primary.sides.has('input');
    for (const variant of [primary, ...list.filter((v) => v !== primary)]) {
      if (variant.name !== undefined) continue;
      let preferred = base;
      if (variant !== primary) {
        // The one legitimate second variant: the input side of a schema whose output side differs.
        const inputSide = !variant.sides.has('output') && !inputNamed;
        if (inputSide) inputNamed = true;
        preferred = inputSide ? `${base}Input` : base;
      }
      variant.name = claim(preferred, variant.text);
      if (variant.name !== preferred || (variant !== primary && preferred === base)) {
        report(variant.where, `schema id '${id}' is shared by different schemas; this one is documented as '${variant.name}'. Give each schema its own id.`);
      }
    }
  };

  const emit = (name: string, scope: SchemaScope, json: JsonSchema, hint: string): void => {
    if (emitted.has(name)) return;
    emitted.add(name); // before rewriting: a recursive schema refers to itself
    schemas[name] = rewrite(scope, json, hint, false) as JsonSchema;
  };

  /** A cycle-breaking def without an id, named after the use that placed it first. */
  const anonymousName = (scope: SchemaScope, local: string, base: string): string => {
    let names = anonymous.get(scope);
    if (!names) anonymous.set(scope, (names = new Map()));
    let name = names.get(local);
    if (name === undefined) {
      const json = scope.defs[local] as JsonSchema;
      names.set(local, (name = claim(componentName(base), scope.defTexts[local] ?? JSON.stringify(json))));
      emit(name, scope, json, base);
    }
    return name;
  };

  const rewriteRef = (scope: SchemaScope, ref: string, hint: string): string => {
    if (!ref.startsWith(LOCAL_DEFS)) return ref;
    const local = decodePointer(ref.slice(LOCAL_DEFS.length));
    if (scope.defs[local] === undefined) return ref;
    if (isAnonymousDef(local)) return COMPONENTS + anonymousName(scope, local, `${hint}_${local.replace(/^__schema/, '')}`);
    let variant = variants.get(local)?.find((v) => v.text === scope.defTexts[local]);
    if (!variant) {
      // Placed without being collected first: still correct, just named without the input/output split.
      variant = register(scope, local, 'output', hint);
      nameVariants(local, variants.get(local) as Variant[]);
    }
    const name = variant.name as string;
    emit(name, variant.scope, variant.json, hint);
    return COMPONENTS + name;
  };

  const rewrite = (scope: SchemaScope, value: unknown, hint: string, nameMap: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => rewrite(scope, item, hint, false));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    // for-in, not Object.entries: same keys in the same order for these plain JSON objects,
    // without an array per key (this copies every schema of the document).
    for (const key in value) {
      const child = (value as Record<string, unknown>)[key];
      let next: unknown;
      if (nameMap) next = rewrite(scope, child, hint, false);
      else if (key === '$ref' && typeof child === 'string') next = rewriteRef(scope, child, hint);
      else if (LITERALS.has(key)) next = copy(child);
      else next = rewrite(scope, child, hint, NAME_MAPS.has(key));
      setOwn(out, key, next);
    }
    return out;
  };

  return {
    schemas,
    collect(converted, side, where) {
      for (const id of converted.reaches) if (!isAnonymousDef(id)) register(converted.scope, id, side, where);
    },
    assignNames() {
      for (const [id, list] of variants) nameVariants(id, list);
    },
    place(converted, hint) {
      // A recursive schema without an id is a bare reference to a cycle-breaking def: that
      // component takes the use's own name (`PostsController_tree_response`).
      const local = bareLocalRef(converted.root);
      if (local !== undefined && isAnonymousDef(local) && converted.scope.defs[local] !== undefined) {
        return { $ref: COMPONENTS + anonymousName(converted.scope, local, hint) };
      }
      return rewrite(converted.scope, converted.root, hint, false) as JsonSchema;
    },
    placeRequestBody(converted, hint) {
      const local = bareLocalRef(converted.root);
      const def = local === undefined || isAnonymousDef(local) ? undefined : converted.scope.defs[local];
      if (def !== undefined && hasDefaultedOptionalProperty(def)) return rewrite(converted.scope, def, hint, false) as JsonSchema;
      return this.place(converted, hint);
    },
    placePart(converted, part, hint) {
      return rewrite(converted.scope, part, hint, false) as JsonSchema;
    },
    dereferenceRoot(converted) {
      const local = bareLocalRef(converted.root);
      return (local === undefined ? undefined : converted.scope.defs[local]) ?? converted.root;
    },
  };
}

/** Whether an object schema has a property that is not required and has a default. */
function hasDefaultedOptionalProperty(json: JsonSchema): boolean {
  const properties = json.properties;
  if (typeof properties !== 'object' || properties === null) return false;
  const required = new Set(Array.isArray(json.required) ? (json.required as unknown[]) : []);
  return Object.entries(properties as Record<string, unknown>).some(
    ([name, part]) => !required.has(name) && typeof part === 'object' && part !== null && (part as JsonSchema).default !== undefined,
  );
}

/** The local def a schema consisting of nothing but `$ref: '#/$defs/<name>'` points at. */
function bareLocalRef(json: JsonSchema): string | undefined {
  const ref = json.$ref;
  if (typeof ref !== 'string' || !ref.startsWith(LOCAL_DEFS) || Object.keys(json).length !== 1) return undefined;
  return decodePointer(ref.slice(LOCAL_DEFS.length));
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const key in value) setOwn(out, key, copy((value as Record<string, unknown>)[key]));
  return out;
}

/** Plain assignment of `__proto__` would set the prototype instead of a property named so. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
