import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fastConvert, fastToJsonSchema, fastUnsupportedReason } from '../../lib/openapi/fast-conversion/index.js';
import type { SchemaSide } from '../../lib/internal/schema.js';
import { convertSchemas, useFastConversion } from '../../lib/openapi/schema-conversion.js';
import { exactDifference } from '../../property-tests/openapi/zod-schema-arbitraries.js';
import { zodReference } from '../../property-tests/openapi/zod-reference.js';

/** zod's conversion with the framework's options, `$schema` removed: what the fast path must equal. */
/** The fast conversion of one side, checked against zod key for key and in key order. */
function fast(schema: z.ZodType, io: SchemaSide = 'output'): Record<string, unknown> {
  const json = fastToJsonSchema(schema, io);
  expect(json, `fast path gave up: ${fastUnsupportedReason(schema, io)}`).toBeDefined();
  const zod = zodReference(schema, io);
  if ('error' in zod) throw new Error(`zod itself failed: ${zod.error}`);
  const reference = zod.json;
  const { $defs: a, ...rootA } = json as Record<string, unknown>;
  const { $defs: b, ...rootB } = reference;
  expect(JSON.stringify(rootA)).toBe(JSON.stringify(rootB));
  expect(a).toEqual(b);
  expect(exactDifference(rootA, rootB)).toBeUndefined();
  return json as Record<string, unknown>;
}

describe('fast conversion, node by node', () => {
  it('string: lengths, formats, patterns', () => {
    expect(fast(z.string())).toEqual({ type: 'string' });
    expect(fast(z.string().min(1).max(5))).toEqual({ type: 'string', minLength: 1, maxLength: 5 });
    expect(fast(z.string().length(3))).toEqual({ type: 'string', minLength: 3, maxLength: 3 });
    expect(fast(z.email())).toMatchObject({ type: 'string', format: 'email', pattern: expect.any(String) });
    expect(fast(z.uuid())).toMatchObject({ format: 'uuid' });
    expect(fast(z.url())).toEqual({ type: 'string', format: 'uri' });
    expect(fast(z.iso.datetime())).toMatchObject({ format: 'date-time' });
    expect(fast(z.iso.datetime({ local: true }))).not.toHaveProperty('format');
    expect(fast(z.iso.time())).not.toHaveProperty('format');
    expect(fast(z.string().regex(/^a/))).toEqual({ type: 'string', pattern: '^a' });
    expect(fast(z.string().regex(/a/).regex(/b/))).toEqual({ type: 'string', allOf: [{ pattern: 'a' }, { pattern: 'b' }] });
    expect(fast(z.base64())).toMatchObject({ format: 'base64', contentEncoding: 'base64' });
    fast(z.base64url().min(4));
    fast(z.string().startsWith('a').endsWith('z').trim().refine(() => true));
    fast(z.coerce.string());
    fast(z.stringFormat('slug', /^[a-z-]+$/));
  });

  it('number and int: bounds, exclusive bounds, integer formats, multipleOf', () => {
    expect(fast(z.number())).toEqual({ type: 'number' });
    expect(fast(z.number().int())).toEqual({ type: 'integer', minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER });
    expect(fast(z.number().int().min(1).max(100))).toEqual({ type: 'integer', minimum: 1, maximum: 100 });
    expect(fast(z.number().positive())).toEqual({ type: 'number', exclusiveMinimum: 0 });
    expect(fast(z.number().gt(1).gte(1))).toEqual({ type: 'number', exclusiveMinimum: 1 });
    expect(fast(z.int32())).toEqual({ type: 'integer', minimum: -2147483648, maximum: 2147483647 });
    expect(fast(z.number().multipleOf(2).multipleOf(-3))).toEqual({ type: 'number', multipleOf: 2, allOf: [{ multipleOf: 3 }] });
    fast(z.float32());
    fast(z.uint32().lt(10));
    fast(z.coerce.number().int().min(1).default(1), 'input');
  });

  it('boolean, null, any, unknown, never, literal, enum, template literal', () => {
    expect(fast(z.boolean())).toEqual({ type: 'boolean' });
    expect(fast(z.null())).toEqual({ type: 'null' });
    expect(fast(z.any())).toEqual({});
    expect(fast(z.unknown())).toEqual({});
    expect(fast(z.never())).toEqual({ not: {} });
    expect(fast(z.literal('a'))).toEqual({ type: 'string', const: 'a' });
    expect(fast(z.literal(null))).toEqual({ type: 'null', const: null });
    expect(fast(z.literal(['a', 1]))).toEqual({ enum: ['a', 1] });
    expect(fast(z.literal([1, 2]))).toEqual({ type: 'number', enum: [1, 2] });
    expect(fast(z.enum(['a', 'b']))).toEqual({ type: 'string', enum: ['a', 'b'] });
    expect(fast(z.nativeEnum({ A: 0, B: 1, 0: 'A', 1: 'B' } as unknown as Record<string, number>))).toEqual({ type: 'number', enum: [0, 1] });
    expect(fast(z.templateLiteral(['id-', z.number()]))).toMatchObject({ type: 'string', pattern: expect.any(String) });
  });

  it('date: a date-time string on both sides, with metadata first', () => {
    expect(fast(z.date(), 'input')).toEqual({ type: 'string', format: 'date-time' });
    expect(fast(z.date().describe('When'))).toEqual({ description: 'When', type: 'string', format: 'date-time' });
    fast(z.coerce.date().min(new Date(0)), 'input');
  });

  it('object: required per side, additionalProperties per side and mode', () => {
    const shape = { a: z.string(), b: z.number().optional(), c: z.string().default('x') };
    expect(fast(z.object(shape), 'input')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' }, c: { default: 'x', type: 'string' } },
      required: ['a'],
    });
    expect(fast(z.object(shape), 'output')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' }, c: { default: 'x', type: 'string' } },
      required: ['a', 'c'],
      additionalProperties: false,
    });
    expect(fast(z.strictObject({}), 'input')).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    expect(fast(z.looseObject({}), 'output')).toEqual({ type: 'object', properties: {}, additionalProperties: {} });
    expect(fast(z.object({}).catchall(z.number()), 'input')).toEqual({ type: 'object', properties: {}, additionalProperties: { type: 'number' } });
    fast(z.object({ 'with space': z.string(), '0': z.boolean(), constructor: z.string() }));
  });

  it('array and tuple: items, bounds, prefixItems', () => {
    expect(fast(z.array(z.string()).min(1).max(3))).toEqual({ minItems: 1, maxItems: 3, type: 'array', items: { type: 'string' } });
    expect(fast(z.tuple([z.string(), z.number().optional()]), 'input')).toEqual({
      type: 'array',
      prefixItems: [{ type: 'string' }, { type: 'number' }],
      items: false,
      minItems: 1,
      maxItems: 2,
    });
    fast(z.tuple([z.string()], z.boolean()));
    fast(z.tuple([z.string().default('a')]), 'input');
  });

  it('optional, nullable, nullish, nonoptional, readonly, default, prefault, catch, lazy', () => {
    expect(fast(z.string().optional())).toEqual({ type: 'string' });
    expect(fast(z.string().nullable())).toEqual({ type: ['string', 'null'] });
    expect(fast(z.enum(['a']).nullable())).toEqual({ anyOf: [{ type: 'string', enum: ['a'] }, { type: 'null' }] });
    expect(fast(z.number().nullish())).toEqual({ type: ['number', 'null'] });
    expect(fast(z.string().optional().nonoptional())).toEqual({ type: 'string' });
    expect(fast(z.string().readonly())).toEqual({ readOnly: true, type: 'string' });
    expect(fast(z.array(z.string()).default([]), 'input')).toEqual({ default: [], type: 'array', items: { type: 'string' } });
    expect(fast(z.string().prefault('p'), 'input')).toEqual({ default: 'p', type: 'string' });
    expect(fast(z.string().prefault('p'), 'output')).toEqual({ type: 'string' });
    expect(fast(z.string().catch('c'))).toEqual({ default: 'c', type: 'string' });
    expect(fast(z.lazy(() => z.string().min(2)))).toEqual({ type: 'string', minLength: 2 });
    fast(z.date().default(new Date(0)), 'input');
  });

  it('union, discriminated union, xor, intersection', () => {
    expect(fast(z.union([z.string(), z.number()]))).toEqual({ type: ['string', 'number'] });
    expect(fast(z.union([z.string().min(1), z.null()]))).toEqual({ anyOf: [{ type: 'string', minLength: 1 }, { type: 'null' }] });
    expect(fast(z.xor([z.string(), z.number()]))).toEqual({ oneOf: [{ type: 'string' }, { type: 'number' }] });
    fast(z.discriminatedUnion('kind', [z.object({ kind: z.literal('a'), a: z.string() }), z.object({ kind: z.literal('b') })]));
    expect(fast(z.object({ a: z.string() }).and(z.object({ b: z.number() })), 'input')).toEqual({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a', 'b'],
    });
    fast(z.object({ a: z.string() }).and(z.union([z.object({ b: z.number() }), z.object({ c: z.null() })])));
    fast(z.string().and(z.string().min(1)));
    // zod reads `Object.prototype.constructor` as the missing member's part; JSON makes it null.
    expect(fast(z.object({ constructor: z.string() }).and(z.object({})), 'input')).toEqual({
      type: 'object',
      properties: { constructor: { allOf: [{ type: 'string' }, null] } },
      required: ['constructor'],
    });
  });

  it('record: string, enum and literal keys; loose records with patterns', () => {
    expect(fast(z.record(z.string(), z.number()))).toEqual({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'number' } });
    expect(fast(z.record(z.enum(['a', 'b']), z.number()))).toMatchObject({ required: ['a', 'b'] });
    expect(fast(z.record(z.enum(['a', 'b']), z.number().optional()), 'input')).not.toHaveProperty('required');
    expect(fast(z.partialRecord(z.enum(['a', 'b']), z.number()))).not.toHaveProperty('required');
    expect(fast(z.looseRecord(z.string().regex(/^k-/), z.number()))).toEqual({ type: 'object', patternProperties: { '^k-': { type: 'number' } } });
    fast(z.record(z.literal('only'), z.string()));
  });

  it('metadata: description, title, examples, custom keys, on any node', () => {
    expect(fast(z.string().describe('Name'))).toEqual({ type: 'string', description: 'Name' });
    expect(fast(z.number().meta({ title: 'N', examples: [1, 2], 'x-unit': 'kg' }))).toEqual({ type: 'number', title: 'N', examples: [1, 2], 'x-unit': 'kg' });
    expect(fast(z.string().optional().describe('Maybe'))).toEqual({ description: 'Maybe', type: 'string' });
    expect(fast(z.string().nullable().describe('Or null'))).toEqual({ description: 'Or null', type: ['string', 'null'] });
    fast(z.string().describe('a').describe('b').meta({ title: 't' }));
  });

  it('named schemas: $defs and $ref, wrappers and derived schemas of a named one', () => {
    const Author = z.object({ name: z.string() }).meta({ id: 'Author', description: 'Who' });
    expect(fast(Author)).toEqual({ $ref: '#/$defs/Author', $defs: { Author: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'], additionalProperties: false, description: 'Who' } } });
    const Note = z.object({
      a: Author,
      b: Author.optional(),
      c: Author.nullable(),
      d: Author.describe('Another description'),
      e: Author.default({ name: 'x' }),
      f: Author.meta({ description: 'Who' }),
      g: z.array(Author),
    });
    const json = fast(Note, 'input');
    expect(json.properties).toMatchObject({
      b: { $ref: '#/$defs/Author' },
      c: { anyOf: [{ $ref: '#/$defs/Author' }, { type: 'null' }] },
      d: { description: 'Another description', $ref: '#/$defs/Author' },
      e: { default: { name: 'x' }, $ref: '#/$defs/Author' },
      f: { $ref: '#/$defs/Author' },
    });
    fast(Note, 'output');
    fast(z.object({ p: z.string() }).meta({ id: 'a/b~c' }));
    fast(z.string().optional().meta({ id: 'Opt' }).describe('derived from a named wrapper'));
    fast(z.object({ x: z.string().meta({ id: 'Inner' }) }).meta({ id: 'Outer' }).describe('d'));
  });

  it('gives up, for zod to decide, on what it does not model', () => {
    const reasons = (schema: z.ZodType) => fastUnsupportedReason(schema, 'output');
    expect(reasons(z.bigint())).toBe('bigint');
    expect(reasons(z.string().transform((s) => s.length))).toBe('pipe');
    expect(reasons(z.custom<string>())).toBe('custom');
    expect(reasons(z.map(z.string(), z.string()))).toBe('map');
    expect(reasons(z.number().multipleOf(0))).toBe('multipleOf divisor');
    expect(reasons(z.record(z.number(), z.string()))).toBe('record key');
    expect(reasons(z.string().meta({ type: 'integer' }))).toBe('metadata key type');
    expect(reasons(z.string().default(undefined as unknown as string))).toBe('default without a JSON form');
    expect(reasons(z.string().meta({ examples: [1n] }))).toBe('metadata value');
    interface Tree { kids: Tree[] }
    const Tree: z.ZodType<Tree> = z.object({ get kids() { return z.array(Tree); } });
    expect(reasons(Tree)).toBe('recursion');
    const twice = z.object({ a: z.string().meta({ id: 'Dup' }), b: z.number().meta({ id: 'Dup' }) });
    expect(reasons(twice)).toBe('two different schemas share an id');
    expect(fastConvert([twice], 'output')).toBeUndefined();
  });
});

describe('convertSchemas with and without the fast converter', () => {
  it('gives the same conversions for a mix of fast and zod schemas', () => {
    const make = () => {
      const Money = z.object({ cents: z.bigint() }).meta({ id: 'Money' });
      const Item = z.object({ name: z.string(), price: Money }).meta({ id: 'Item' });
      const Tag = z.object({ label: z.string() }).meta({ id: 'Tag' });
      interface Tree { name: string; kids: Tree[] }
      const Tree: z.ZodType<Tree> = z.object({ name: z.string(), get kids() { return z.array(Tree); } });
      return [Item, Tag, z.array(Tag), Tree, z.object({ tag: Tag, at: z.date() }), z.string().transform(Number)];
    };
    const previous = useFastConversion(false);
    const slow = convertSchemas(make(), 'output');
    useFastConversion(true);
    const quick = convertSchemas(make(), 'output');
    useFastConversion(previous);
    const view = (list: typeof slow) =>
      list.map((c) => ({ root: JSON.stringify(c.root), problems: c.problems, reaches: c.reaches, defs: c.reaches.map((name) => c.scope.defTexts[name]) }));
    expect(view(quick)).toEqual(view(slow));
  });
});
