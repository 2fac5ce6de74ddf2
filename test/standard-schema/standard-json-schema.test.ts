import { afterEach, describe, expect, it } from 'vitest';
import * as v from 'valibot';
import * as valibotJsonSchema from '@valibot/to-json-schema';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import { type } from 'arktype';
import { convertStandardSchema, forgetSchemaConverters, loadSchemaConverters } from '../../lib/openapi/standard-json-schema.js';

// The converter of non-zod schemas, against the real libraries (valibot 1, ArkType 2.2).

afterEach(() => forgetSchemaConverters({ installed: true }));

describe('valibot, through @valibot/to-json-schema', () => {
  const Post = v.object({
    title: v.pipe(v.string(), v.minLength(1)),
    draft: v.optional(v.boolean(), false),
    words: v.pipe(v.string(), v.transform((text) => text.split(' ').length)),
  });

  it('documents the input side without $schema, up to the first transform', () => {
    const converted = convertStandardSchema(Post, 'input');
    expect(converted.root, 'valibot input side').toEqual({
      type: 'object',
      properties: { title: { type: 'string', minLength: 1 }, draft: { type: 'boolean', default: false }, words: { type: 'string' } },
      required: ['title', 'words'],
    });
    expect(converted.problems, 'a transform after the input side is no problem for a request').toEqual([]);
  });

  it('reports a transform it cannot express on the output side', () => {
    const converted = convertStandardSchema(Post, 'output');
    expect(converted.problems, 'the output of a transform is unknown to the converter').toEqual([
      '(some part): The "transform" action cannot be converted to JSON Schema.',
    ]);
  });

  it('documents a recursive schema with an anonymous def the document names after its use', () => {
    interface Node { name: string; children: Node[] }
    const Tree: v.GenericSchema<Node> = v.object({ name: v.string(), children: v.array(v.lazy(() => Tree)) });
    const converted = convertStandardSchema(Tree, 'output');
    expect(converted.reaches, 'the root reaches the cycle-breaking def').toEqual(['__schema0']);
    expect(converted.scope.defs.__schema0, 'the def refers to itself under its new name').toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/__schema0' } } },
      required: ['name', 'children'],
    });
  });

  it('uses Standard JSON Schema when the schema is wrapped with toStandardJsonSchema', () => {
    const converted = convertStandardSchema(toStandardJsonSchema(v.object({ id: v.number() })), 'output');
    expect(converted.root, 'the wrapper answers ~standard.jsonSchema').toEqual({
      type: 'object',
      properties: { id: { type: 'number' } },
      required: ['id'],
    });
  });

  it('documents an open schema naming the package when the converter is not installed', () => {
    forgetSchemaConverters({ installed: false });
    const converted = convertStandardSchema(v.object({ id: v.number() }), 'input');
    expect(converted.root, 'open schema').toEqual({
      description: 'Open schema: no JSON Schema converter for valibot schemas is installed (install @valibot/to-json-schema).',
    });
    expect(converted.problems, 'the open schema is a problem onUnrepresentable acts on').toHaveLength(1);
  });

  it('converts again once loadSchemaConverters has loaded the converter', async () => {
    forgetSchemaConverters({ installed: false });
    await loadSchemaConverters();
    expect(convertStandardSchema(v.object({ id: v.number() }), 'input').root, 'converted after loading').toEqual({
      type: 'object',
      properties: { id: { type: 'number' } },
      required: ['id'],
    });
  });
});

describe('loadSchemaConverters given the module (a bundle without module resolution)', () => {
  it('uses the module it is given', async () => {
    forgetSchemaConverters({ installed: false });
    await loadSchemaConverters({ valibot: valibotJsonSchema });
    expect(convertStandardSchema(v.object({ id: v.string() }), 'input').root, 'converted by the given module').toEqual({
      type: 'object',
      properties: { id: { type: 'string' } },
      required: ['id'],
    });
  });

  it('refuses something that is not the converter module', async () => {
    await expect(loadSchemaConverters({ valibot: {} as never }), 'a wrong module is a mistake to name').rejects.toThrow(/@valibot\/to-json-schema module/);
  });
});

describe('ArkType, through ~standard.jsonSchema', () => {
  const Post = type({ title: 'string > 0', 'draft?': 'boolean', tags: 'string[] = []' as never });

  it('documents the input side: a defaulted property is optional', () => {
    const converted = convertStandardSchema(Post, 'input');
    expect(converted.root.required, 'input side').toEqual(['title']);
    expect(converted.root.$schema, '$schema removed').toBeUndefined();
  });

  it('documents the output side: a defaulted property is always present', () => {
    expect(convertStandardSchema(Post, 'output').root.required, 'output side').toEqual(['tags', 'title']);
  });

  it('renames ArkType node ids in $defs to anonymous defs', () => {
    const Tree = type({ name: 'string', children: 'this[]' });
    const converted = convertStandardSchema(Tree, 'output');
    expect(converted.root, 'the root refers to a renamed def').toEqual({ $ref: '#/$defs/__schema0' });
    expect(Object.keys(converted.scope.defs).sort(), 'every def renamed').toEqual(['__schema0', '__schema1']);
    expect(JSON.stringify(converted.scope.defs), 'no reference to an old id is left').not.toMatch(/"\$ref":"#\/\$defs\/(?!__schema)/);
  });

  it('documents a Date as a date-time string, as a zod date is', () => {
    expect(convertStandardSchema(type({ at: 'Date' }), 'output').root.properties, 'Date as JSON carries it').toEqual({ at: { type: 'string', format: 'date-time' } });
  });

  it('reports what JSON Schema cannot express (bigint, Map) instead of leaving it silently open', () => {
    const converted = convertStandardSchema(type({ n: 'bigint', m: 'Map' }), 'output');
    expect(converted.problems, 'one problem per kind').toEqual(['(some part): ArkType has no JSON Schema for Map', '(some part): ArkType has no JSON Schema for bigint']);
  });

  it('falls back to type.in/out.toJsonSchema() for an ArkType without Standard JSON Schema', () => {
    const Id = type({ id: 'number', 'at?': 'string' });
    const older = { '~standard': { vendor: 'arktype', version: 1 as const, validate: Id['~standard'].validate }, in: Id.in, out: Id.out };
    expect(convertStandardSchema(older, 'input').root, 'converted by toJsonSchema').toEqual({
      type: 'object',
      properties: { at: { type: 'string' }, id: { type: 'number' } },
      required: ['id'],
    });
  });
});

describe('a library without a converter', () => {
  it('is documented as an open schema whose description says why', () => {
    const custom = { '~standard': { vendor: 'homemade', version: 1 as const, validate: (value: unknown) => ({ value }) } };
    const converted = convertStandardSchema(custom, 'input');
    expect(converted.root.description, 'open schema description').toMatch(/^Open schema: no JSON Schema converter is known for homemade schemas/);
    expect(Object.keys(converted.root), 'nothing but the description').toEqual(['description']);
    expect(converted.problems[0], 'reported as a problem').toMatch(/^\(whole schema\): could not be converted/);
  });

  it('is documented as an open schema when its own converter throws', () => {
    const failing = {
      '~standard': {
        vendor: 'strict',
        version: 1 as const,
        validate: (value: unknown) => ({ value }),
        jsonSchema: { input: () => { throw new Error('target not supported'); }, output: () => ({}) },
      },
    };
    expect(convertStandardSchema(failing, 'input').root.description, 'the converter error is named').toBe(
      'Open schema: the strict converter failed: target not supported.',
    );
  });
});
