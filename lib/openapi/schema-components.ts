import type { JsonSchema } from './openapi-document.js';
import { isAnonymousDef, type ConvertedSchema, type SchemaSide } from './schema-conversion.js';

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
  readonly converted: ConvertedSchema;
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
  const anonymous = new WeakMap<ConvertedSchema, Map<string, string>>();

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

  const register = (converted: ConvertedSchema, id: string, side: SchemaSide, where: string): Variant => {
    const text = converted.defTexts[id] as string;
    let list = variants.get(id);
    if (!list) variants.set(id, (list = []));
    let variant = list.find((v) => v.text === text);
    if (!variant) list.push((variant = { id, text, json: converted.defs[id] as JsonSchema, converted, sides: new Set(), where }));
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

  const emit = (name: string, converted: ConvertedSchema, json: JsonSchema, hint: string): void => {
    if (emitted.has(name)) return;
    emitted.add(name); // before rewriting: a recursive schema refers to itself
    schemas[name] = rewrite(converted, json, hint, false) as JsonSchema;
  };

  const anonymousName = (converted: ConvertedSchema, local: string, hint: string): string => {
    let names = anonymous.get(converted);
    if (!names) anonymous.set(converted, (names = new Map()));
    let name = names.get(local);
    if (name === undefined) {
      const base = componentName(local === '#' ? hint : `${hint}_${local.replace(/^__schema/, '')}`);
      const json = local === '#' ? converted.root : (converted.defs[local] as JsonSchema);
      names.set(local, (name = claim(base, JSON.stringify(json))));
      emit(name, converted, json, hint);
    }
    return name;
  };

  const rewriteRef = (converted: ConvertedSchema, ref: string, hint: string): string => {
    if (ref === '#') return COMPONENTS + anonymousName(converted, '#', hint);
    if (!ref.startsWith(LOCAL_DEFS)) return ref;
    const local = ref.slice(LOCAL_DEFS.length).replace(/~1/g, '/').replace(/~0/g, '~');
    if (converted.defs[local] === undefined) return ref;
    if (isAnonymousDef(local)) return COMPONENTS + anonymousName(converted, local, hint);
    let variant = variants.get(local)?.find((v) => v.text === converted.defTexts[local]);
    if (!variant) {
      // Placed without being collected first: still correct, just named without the input/output split.
      variant = register(converted, local, 'output', hint);
      nameVariants(local, variants.get(local) as Variant[]);
    }
    const name = variant.name as string;
    emit(name, variant.converted, variant.json, hint);
    return COMPONENTS + name;
  };

  const rewrite = (converted: ConvertedSchema, value: unknown, hint: string, nameMap: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => rewrite(converted, item, hint, false));
    if (value === null || typeof value !== 'object') return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      let next: unknown;
      if (nameMap) next = rewrite(converted, child, hint, false);
      else if (key === '$ref' && typeof child === 'string') next = rewriteRef(converted, child, hint);
      else if (LITERALS.has(key)) next = copy(child);
      else next = rewrite(converted, child, hint, NAME_MAPS.has(key));
      setOwn(out, key, next);
    }
    return out;
  };

  return {
    schemas,
    collect(converted, side, where) {
      for (const id of Object.keys(converted.defs)) if (!isAnonymousDef(id)) register(converted, id, side, where);
    },
    assignNames() {
      for (const [id, list] of variants) nameVariants(id, list);
    },
    place(converted, hint) {
      if (converted.selfReferencing) return { $ref: COMPONENTS + anonymousName(converted, '#', hint) };
      return rewrite(converted, converted.root, hint, false) as JsonSchema;
    },
    placePart(converted, part, hint) {
      return rewrite(converted, part, hint, false) as JsonSchema;
    },
    dereferenceRoot(converted) {
      const ref = converted.root.$ref;
      if (typeof ref === 'string' && ref.startsWith(LOCAL_DEFS) && Object.keys(converted.root).length === 1) {
        return converted.defs[ref.slice(LOCAL_DEFS.length)] ?? converted.root;
      }
      return converted.root;
    },
  };
}

function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) setOwn(out, key, copy(child));
  return out;
}

/** Plain assignment of `__proto__` would set the prototype instead of a property named so. */
function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
