import fc from 'fast-check';
import { z } from 'zod';

/**
 * Random zod schemas, as plain specs (readable when a property fails, shrinkable) built into
 * fresh zod schemas by `buildSchema`. The specs cover what the fast converter supports, with
 * metadata anywhere, a pool of named schemas (`.meta({ id })`) shared by reference, and, when
 * asked, the things it must leave to zod: unsupported nodes, recursion, odd metadata and
 * defaults, clashing ids.
 */
export type Spec =
  | { k: 'string'; base: StringBase; checks: StringCheck[]; coerce: boolean }
  | { k: 'number'; base: NumberBase; checks: NumberCheck[]; coerce: boolean }
  | { k: 'boolean' | 'null' | 'any' | 'unknown' | 'never' | 'date' | 'coerceDate' | 'coerceBoolean' }
  | { k: 'literal'; values: (string | number | boolean | null)[] }
  | { k: 'enum'; values: string[] }
  | { k: 'nativeEnum'; numeric: boolean }
  | { k: 'template' }
  | { k: 'object'; shape: [string, Spec][]; mode: 'strip' | 'strict' | 'loose' | { catchall: Spec } }
  | { k: 'array'; of: Spec; checks: ('min' | 'max' | 'length' | 'nonempty')[]; n: number }
  | { k: 'tuple'; items: Spec[]; rest: Spec | null }
  | { k: 'union'; options: Spec[]; exclusive: boolean }
  | { k: 'discriminated'; branches: [string, Spec][][] }
  | { k: 'and'; left: Spec; right: Spec }
  | { k: 'record'; key: 'string' | 'enum' | 'literal' | 'pattern' | 'number'; value: Spec; variant: 'plain' | 'partial' | 'loose' }
  | { k: 'wrap'; w: 'optional' | 'exactOptional' | 'nullable' | 'nullish' | 'readonly' | 'nonoptional' | 'lazy'; of: Spec }
  | { k: 'default' | 'prefault' | 'catch'; of: Spec; value: unknown }
  | { k: 'meta'; of: Spec; meta: Record<string, unknown>; how: 'meta' | 'describe' }
  | { k: 'named'; index: number }
  | { k: 'unsupported'; what: Unsupported };

type StringBase = 'string' | 'email' | 'uuid' | 'guid' | 'url' | 'datetime' | 'datetimeLocal' | 'datetimeOffset' | 'date' | 'time' | 'duration' | 'ipv4' | 'ipv6' | 'cidrv4' | 'base64' | 'base64url' | 'e164' | 'jwt' | 'cuid' | 'cuid2' | 'ulid' | 'nanoid' | 'emoji' | 'hostname' | 'hex' | 'sha256' | 'custom-format';
type StringCheck = ['min' | 'max' | 'length', number] | ['regex' | 'startsWith' | 'endsWith' | 'includes', string] | ['trim' | 'toLowerCase' | 'lowercase' | 'uppercase' | 'refine' | 'nonempty'];
type NumberBase = 'number' | 'int' | 'int32' | 'uint32' | 'float32' | 'float64';
type NumberCheck = ['min' | 'max' | 'gt' | 'lt' | 'gte' | 'lte' | 'multipleOf', number] | ['int' | 'positive' | 'negative' | 'nonnegative' | 'nonpositive' | 'refine'];
type Unsupported = 'bigint' | 'transform' | 'pipe' | 'custom' | 'map' | 'set' | 'symbol' | 'undefined' | 'void' | 'nan' | 'recursive' | 'stringbool' | 'file' | 'preprocess';

/**
 * A whole case: named schemas (each may use earlier ones) and a root using them. With `clash`,
 * the last named schema takes the first one's id and the root uses both: zod rejects that.
 */
export interface SchemaCase {
  readonly named: readonly { spec: Spec; id: string }[];
  readonly root: Spec;
  readonly clash?: boolean;
}

export interface ArbitraryOptions {
  /** Include what the fast path must leave to zod (unsupported nodes, odd metadata...). */
  readonly unsupported: boolean;
  readonly maxDepth?: number;
}

const KEYS = ['id', 'name', 'tags', 'count', 'a', 'b', 'kind', 'x-y', 'with space', '0', '10', 'constructor'];
const SMALL = fc.integer({ min: 0, max: 12 });
const NUMBER = fc.oneof(fc.integer({ min: -100, max: 100 }), fc.constantFrom(0.5, -2.25, 1e-3, 1e21));
const TEXT = fc.string({ maxLength: 6 });
const JSON_VALUE = fc.jsonValue({ maxDepth: 2 });

function metaArbitrary(unsupported: boolean): fc.Arbitrary<Record<string, unknown>> {
  const plain = fc.record(
    {
      description: TEXT,
      title: TEXT,
      examples: fc.array(JSON_VALUE, { maxLength: 2 }),
      deprecated: fc.boolean(),
      format: fc.constantFrom('date', 'custom'),
      readOnly: fc.boolean(),
      default: JSON_VALUE,
      'x-extra': JSON_VALUE,
    },
    { requiredKeys: [] },
  );
  if (!unsupported) return plain;
  const odd = fc.oneof(
    fc.constant({ type: 'string' }),
    fc.constant({ anyOf: [] }),
    fc.constant({ description: undefined }),
    fc.constant({ examples: [new Date(0)] }),
    fc.constant({ 'x-big': 1n }),
    fc.constant({ constructor: 'x' }),
    fc.constant({ id: '' }),
    fc.constant({ $ref: '#/elsewhere' }),
  );
  return fc.oneof({ weight: 6, arbitrary: plain }, { weight: 1, arbitrary: odd });
}

function defaultValueArbitrary(unsupported: boolean): fc.Arbitrary<unknown> {
  if (!unsupported) return JSON_VALUE;
  return fc.oneof(
    { weight: 6, arbitrary: JSON_VALUE },
    { weight: 1, arbitrary: fc.constantFrom<unknown>(undefined, new Date(0), 1n, () => 1, Number.NaN, -0) },
  );
}

const STRING_BASES: StringBase[] = ['string', 'email', 'uuid', 'guid', 'url', 'datetime', 'datetimeLocal', 'datetimeOffset', 'date', 'time', 'duration', 'ipv4', 'ipv6', 'cidrv4', 'base64', 'base64url', 'e164', 'jwt', 'cuid', 'cuid2', 'ulid', 'nanoid', 'emoji', 'hostname', 'hex', 'sha256', 'custom-format'];

const stringSpec = fc.record({
  k: fc.constant('string' as const),
  base: fc.oneof({ weight: 4, arbitrary: fc.constant<StringBase>('string') }, { weight: 3, arbitrary: fc.constantFrom(...STRING_BASES) }),
  checks: fc.array(
    fc.oneof(
      fc.tuple(fc.constantFrom('min' as const, 'max' as const, 'length' as const), SMALL),
      fc.tuple(fc.constantFrom('regex' as const, 'startsWith' as const, 'endsWith' as const, 'includes' as const), fc.constantFrom('a', 'b', 'x/y', '^q$')),
      fc.tuple(fc.constantFrom('trim' as const, 'toLowerCase' as const, 'lowercase' as const, 'uppercase' as const, 'refine' as const, 'nonempty' as const)),
    ) as fc.Arbitrary<StringCheck>,
    { maxLength: 3 },
  ),
  coerce: fc.boolean(),
});

const numberSpec = (unsupported: boolean) =>
  fc.record({
    k: fc.constant('number' as const),
    base: fc.oneof({ weight: 4, arbitrary: fc.constant<NumberBase>('number') }, { weight: 2, arbitrary: fc.constantFrom<NumberBase>('int', 'int32', 'uint32', 'float32', 'float64') }),
    checks: fc.array(
      fc.oneof(
        fc.tuple(fc.constantFrom('min' as const, 'max' as const, 'gt' as const, 'lt' as const, 'gte' as const, 'lte' as const), NUMBER),
        fc.tuple(fc.constant('multipleOf' as const), unsupported ? fc.constantFrom(0, 2, -3, 0.5) : fc.constantFrom(2, -3, 0.5, 5)),
        fc.tuple(fc.constantFrom('int' as const, 'positive' as const, 'negative' as const, 'nonnegative' as const, 'nonpositive' as const, 'refine' as const)),
      ) as fc.Arbitrary<NumberCheck>,
      { maxLength: 3 },
    ),
    coerce: fc.boolean(),
  });

const LEAVES = fc.constantFrom<Spec>(
  { k: 'boolean' },
  { k: 'null' },
  { k: 'any' },
  { k: 'unknown' },
  { k: 'never' },
  { k: 'date' },
  { k: 'coerceDate' },
  { k: 'coerceBoolean' },
  { k: 'template' },
  { k: 'nativeEnum', numeric: false },
  { k: 'nativeEnum', numeric: true },
);

/**
 * Specs of random schemas.
 *
 * @example
 * fc.assert(fc.property(schemaCase({ unsupported: false }), (c) => { ... }));
 */
export function specArbitrary(options: ArbitraryOptions): fc.Arbitrary<Spec> {
  const { unsupported } = options;
  const meta = metaArbitrary(unsupported);
  const value = defaultValueArbitrary(unsupported);
  const depth = { depthSize: 'small' as const, maxDepth: options.maxDepth ?? 4, depthIdentifier: 'spec' };
  const { spec } = fc.letrec<{ spec: Spec }>((tie) => {
    const child = tie('spec');
    const leaf: fc.Arbitrary<Spec>[] = [
      stringSpec,
      numberSpec(unsupported),
      LEAVES,
      fc.record({ k: fc.constant('literal' as const), values: fc.array(fc.oneof(TEXT, fc.integer({ min: -3, max: 3 }), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }) }),
      fc.record({ k: fc.constant('enum' as const), values: fc.uniqueArray(fc.constantFrom('draft', 'live', 'archived', '1', 'x y'), { minLength: 1, maxLength: 3 }) }),
      fc.record({ k: fc.constant('named' as const), index: fc.nat(5) }),
    ];
    if (unsupported) {
      leaf.push(
        fc.record({
          k: fc.constant('unsupported' as const),
          what: fc.constantFrom<Unsupported>('bigint', 'transform', 'pipe', 'custom', 'map', 'set', 'symbol', 'undefined', 'void', 'nan', 'recursive', 'stringbool', 'file', 'preprocess'),
        }),
      );
    }
    const composite: fc.Arbitrary<Spec>[] = [
      fc.record({
        k: fc.constant('object' as const),
        shape: fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), child), { maxLength: 4, selector: ([key]) => key }),
        mode: fc.oneof({ weight: 4, arbitrary: fc.constant('strip' as const) }, { weight: 1, arbitrary: fc.constantFrom('strict' as const, 'loose' as const) }, { weight: 1, arbitrary: fc.record({ catchall: child }) }),
      }),
      fc.record({ k: fc.constant('array' as const), of: child, checks: fc.array(fc.constantFrom('min' as const, 'max' as const, 'length' as const, 'nonempty' as const), { maxLength: 2 }), n: SMALL }),
      fc.record({ k: fc.constant('tuple' as const), items: fc.array(child, { maxLength: 3 }), rest: fc.option(child, { nil: null }) }),
      fc.record({ k: fc.constant('union' as const), options: fc.array(child, { minLength: 1, maxLength: 3 }), exclusive: fc.boolean() }),
      fc.record({
        k: fc.constant('discriminated' as const),
        branches: fc.array(fc.uniqueArray(fc.tuple(fc.constantFrom('a', 'b', 'name'), child), { maxLength: 2, selector: ([key]) => key }), { minLength: 1, maxLength: 3 }),
      }),
      fc.record({ k: fc.constant('and' as const), left: child, right: child }),
      fc.record({
        k: fc.constant('record' as const),
        key: unsupported ? fc.constantFrom('string' as const, 'enum' as const, 'literal' as const, 'pattern' as const, 'number' as const) : fc.constantFrom('string' as const, 'enum' as const, 'literal' as const, 'pattern' as const),
        value: child,
        variant: fc.constantFrom('plain' as const, 'partial' as const, 'loose' as const),
      }),
      fc.record({ k: fc.constant('wrap' as const), w: fc.constantFrom('optional' as const, 'exactOptional' as const, 'nullable' as const, 'nullish' as const, 'readonly' as const, 'nonoptional' as const, 'lazy' as const), of: child }),
      fc.record({ k: fc.constantFrom('default' as const, 'prefault' as const, 'catch' as const), of: child, value }),
      fc.record({ k: fc.constant('meta' as const), of: child, meta, how: fc.constantFrom('meta' as const, 'describe' as const) }),
    ];
    return {
      spec: fc.oneof(depth, ...leaf.map((arbitrary) => ({ weight: 2, arbitrary })), ...composite.map((arbitrary) => ({ weight: 1, arbitrary }))),
    };
  });
  return spec;
}

/**
 * A root spec with up to four named schemas; ids clash (two different schemas, one id) only
 * when `unsupported` is set, and rarely.
 *
 * @example
 * fc.sample(schemaCase({ unsupported: true }), 1);
 */
export function schemaCase(options: ArbitraryOptions): fc.Arbitrary<SchemaCase> {
  const spec = specArbitrary({ ...options, maxDepth: options.maxDepth ?? 3 });
  const clashes = options.unsupported
    ? fc.oneof({ weight: 12, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) })
    : fc.constant(false);
  return fc.record({ named: fc.array(spec, { maxLength: 4 }), root: spec, clash: clashes }).map(({ named, root, clash }) => {
    const withClash = clash && named.length >= 2;
    return {
      named: named.map((s, index) => ({ spec: s, id: withClash && index === named.length - 1 ? 'N0' : `N${index}` })),
      root,
      ...(withClash ? { clash: true } : {}),
    };
  });
}

/**
 * Builds fresh zod schemas from a case: the named ones first (each `.meta({ id })`), then the
 * root. Every call gives new schema objects.
 *
 * @example
 * const { root } = buildCase(sample);
 */
export function buildCase(schemaCase: SchemaCase): { root: z.ZodType; named: z.ZodType[] } {
  const named: z.ZodType[] = [];
  for (const { spec, id } of schemaCase.named) named.push(buildSchema(spec, named).meta({ id }));
  const root = buildSchema(schemaCase.root, named);
  if (schemaCase.clash) return { root: z.object({ root, first: named[0] as z.ZodType, last: named.at(-1) as z.ZodType }), named };
  return { root, named };
}

/**
 * One spec as a zod schema; `named` are the schemas a `named` spec may refer to.
 *
 * @example
 * buildSchema({ k: 'boolean' }, []); // z.boolean()
 */
export function buildSchema(spec: Spec, named: readonly z.ZodType[]): z.ZodType {
  const build = (s: Spec) => buildSchema(s, named);
  switch (spec.k) {
    case 'string':
      return buildString(spec.base, spec.checks, spec.coerce);
    case 'number':
      return buildNumber(spec.base, spec.checks, spec.coerce);
    case 'boolean':
      return z.boolean();
    case 'null':
      return z.null();
    case 'any':
      return z.any();
    case 'unknown':
      return z.unknown();
    case 'never':
      return z.never();
    case 'date':
      return z.date().min(new Date(0));
    case 'coerceDate':
      return z.coerce.date();
    case 'coerceBoolean':
      return z.coerce.boolean();
    case 'template':
      return z.templateLiteral(['id-', z.number().int()]);
    case 'nativeEnum':
      return spec.numeric ? z.nativeEnum({ A: 0, B: 1, 0: 'A', 1: 'B' } as unknown as Record<string, number>) : z.nativeEnum({ Up: 'UP', Down: 'DOWN' });
    case 'literal':
      return spec.values.length === 1 ? z.literal(spec.values[0] as string) : z.literal(spec.values as [string, ...string[]]);
    case 'enum':
      return z.enum(spec.values as [string, ...string[]]);
    case 'object': {
      const shape = Object.fromEntries(spec.shape.map(([key, s]) => [key, build(s)]));
      if (spec.mode === 'strict') return z.strictObject(shape);
      if (spec.mode === 'loose') return z.looseObject(shape);
      if (spec.mode === 'strip') return z.object(shape);
      return z.object(shape).catchall(build(spec.mode.catchall));
    }
    case 'array': {
      let schema = z.array(build(spec.of));
      for (const check of spec.checks) schema = check === 'nonempty' ? schema.nonempty() : schema[check](spec.n);
      return schema;
    }
    case 'tuple': {
      const items = spec.items.map(build) as [z.ZodType, ...z.ZodType[]];
      return spec.rest ? z.tuple(items, build(spec.rest)) : z.tuple(items);
    }
    case 'union': {
      const options = spec.options.map(build) as [z.ZodType, z.ZodType, ...z.ZodType[]];
      return spec.exclusive ? z.xor(options) : z.union(options);
    }
    case 'discriminated': {
      const branches = spec.branches.map((shape, index) =>
        z.object({ kind: z.literal(`v${index}`), ...Object.fromEntries(shape.map(([key, s]) => [key, build(s)])) }),
      ) as [z.ZodObject<{ kind: z.ZodLiteral<string> }>, ...z.ZodObject<{ kind: z.ZodLiteral<string> }>[]];
      return z.discriminatedUnion('kind', branches);
    }
    case 'and':
      return z.intersection(build(spec.left), build(spec.right));
    case 'record': {
      const key =
        spec.key === 'string' ? z.string().min(1)
        : spec.key === 'enum' ? z.enum(['a', 'b'])
        : spec.key === 'literal' ? z.literal('only')
        : spec.key === 'pattern' ? z.string().regex(/^k-/)
        : z.number();
      const value = build(spec.value);
      if (spec.variant === 'partial') return z.partialRecord(key as z.ZodEnum<{ a: 'a'; b: 'b' }>, value);
      if (spec.variant === 'loose') return z.looseRecord(key as z.ZodString, value);
      return z.record(key as z.ZodString, value);
    }
    case 'wrap': {
      const inner = build(spec.of);
      switch (spec.w) {
        case 'optional':
          return inner.optional();
        case 'exactOptional':
          return (inner as z.ZodString).exactOptional();
        case 'nullable':
          return inner.nullable();
        case 'nullish':
          return inner.nullish();
        case 'readonly':
          return inner.readonly();
        case 'nonoptional':
          return inner.nonoptional();
        case 'lazy':
          return z.lazy(() => inner);
      }
      break;
    }
    case 'default':
      return build(spec.of).default(spec.value as never);
    case 'prefault':
      return build(spec.of).prefault(spec.value as never);
    case 'catch':
      return build(spec.of).catch(spec.value as never);
    case 'meta': {
      const inner = build(spec.of);
      if (spec.how === 'describe') return inner.describe(typeof spec.meta.description === 'string' ? spec.meta.description : 'described');
      return inner.meta(spec.meta);
    }
    case 'named':
      return named.length === 0 ? z.string() : (named[spec.index % named.length] as z.ZodType);
    case 'unsupported':
      return buildUnsupported(spec.what);
  }
  throw new Error(`unknown spec ${JSON.stringify(spec)}`);
}

function buildString(base: StringBase, checks: readonly StringCheck[], coerce: boolean): z.ZodType {
  let schema: z.ZodString;
  switch (base) {
    case 'string':
      schema = coerce ? (z.coerce.string() as unknown as z.ZodString) : z.string();
      break;
    case 'datetimeLocal':
      schema = z.iso.datetime({ local: true }) as unknown as z.ZodString;
      break;
    case 'datetimeOffset':
      schema = z.iso.datetime({ offset: true, precision: 3 }) as unknown as z.ZodString;
      break;
    case 'datetime':
    case 'date':
    case 'time':
    case 'duration':
      schema = z.iso[base]() as unknown as z.ZodString;
      break;
    case 'sha256':
      schema = z.hash('sha256') as unknown as z.ZodString;
      break;
    case 'custom-format':
      schema = z.stringFormat('slug', /^[a-z-]+$/) as unknown as z.ZodString;
      break;
    default:
      schema = (z[base] as unknown as () => z.ZodString)();
  }
  for (const check of checks) {
    switch (check[0]) {
      case 'min':
      case 'max':
      case 'length':
        schema = schema[check[0]](check[1] as number);
        break;
      case 'regex':
        schema = schema.regex(new RegExp(check[1] as string));
        break;
      case 'startsWith':
      case 'endsWith':
      case 'includes':
        schema = schema[check[0]](check[1] as string);
        break;
      case 'refine':
        schema = schema.refine((s) => s.length < 100);
        break;
      default:
        schema = schema[check[0]]();
    }
  }
  return schema;
}

function buildNumber(base: NumberBase, checks: readonly NumberCheck[], coerce: boolean): z.ZodType {
  let schema: z.ZodNumber = base === 'number' ? (coerce ? z.coerce.number() : z.number()) : (z[base]() as unknown as z.ZodNumber);
  for (const check of checks) {
    switch (check[0]) {
      case 'min':
      case 'max':
      case 'gt':
      case 'lt':
      case 'gte':
      case 'lte':
      case 'multipleOf':
        schema = schema[check[0]](check[1] as number);
        break;
      case 'refine':
        schema = schema.refine((n) => n !== 13);
        break;
      default:
        schema = schema[check[0]]();
    }
  }
  return schema;
}

function buildUnsupported(what: Unsupported): z.ZodType {
  switch (what) {
    case 'bigint':
      return z.bigint();
    case 'transform':
      return z.string().transform((s) => s.length);
    case 'pipe':
      return z.string().pipe(z.string().min(1));
    case 'custom':
      return z.custom<string>((v) => typeof v === 'string');
    case 'map':
      return z.map(z.string(), z.number());
    case 'set':
      return z.set(z.string());
    case 'symbol':
      return z.symbol();
    case 'undefined':
      return z.undefined();
    case 'void':
      return z.void();
    case 'nan':
      return z.nan();
    case 'stringbool':
      return z.stringbool();
    case 'file':
      return z.file();
    case 'preprocess':
      return z.preprocess((v) => v, z.string());
    case 'recursive': {
      interface Tree { name: string; kids: Tree[] }
      const Tree: z.ZodType<Tree> = z.object({ name: z.string(), get kids() { return z.array(Tree); } });
      return Tree;
    }
  }
}

/**
 * The first difference between two JSON-like values, or `undefined`: same types, same
 * prototypes, same own keys (non-enumerable and symbol ones included) in the same order, numbers
 * by `Object.is`. Stricter than `toStrictEqual`, which also reads a `constructor` property as
 * the object's class (and JSON schemas may have a property named `constructor`).
 *
 * @example
 * expect(exactDifference(actual, expected)).toBeUndefined();
 */
export function exactDifference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (typeof actual !== typeof expected) return `${path}: ${typeof actual} vs ${typeof expected}`;
  if (actual === null || expected === null || typeof actual !== 'object') {
    return Object.is(actual, expected) ? undefined : `${path}: ${String(actual)} vs ${String(expected)}`;
  }
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) return `${path}: different prototypes`;
  const actualKeys = Reflect.ownKeys(actual);
  const expectedKeys = Reflect.ownKeys(expected as object);
  if (actualKeys.length !== expectedKeys.length || actualKeys.some((key, index) => key !== expectedKeys[index])) {
    return `${path}: keys [${actualKeys.map(String).join(', ')}] vs [${expectedKeys.map(String).join(', ')}]`;
  }
  for (const key of actualKeys) {
    const a = Object.getOwnPropertyDescriptor(actual, key) as PropertyDescriptor;
    const b = Object.getOwnPropertyDescriptor(expected, key) as PropertyDescriptor;
    if (a.enumerable !== b.enumerable) return `${path}.${String(key)}: enumerability differs`;
    const difference = exactDifference(a.value, b.value, `${path}.${String(key)}`);
    if (difference !== undefined) return difference;
  }
  return undefined;
}
