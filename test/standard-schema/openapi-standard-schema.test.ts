import { afterEach, describe, expect, it } from 'vitest';
import { type } from 'arktype';
import * as v from 'valibot';
import { createApp, defineController, defineModule, get, post } from '../../lib/index.js';
import { generateOpenApiDocument, serveOpenApi } from '../../lib/openapi/index.js';
import { forgetSchemaConverters } from '../../lib/openapi/standard-json-schema.js';

// The generator with valibot and ArkType route schemas: sides, optional bodies, the served
// document on a runtime that cannot load the converter synchronously, and the open fallback.

afterEach(() => forgetSchemaConverters({ installed: true }));

// A fresh schema per test: conversions are cached per schema object.
const note = () => v.object({ text: v.pipe(v.string(), v.maxLength(140)), pinned: v.optional(v.boolean(), false) });

async function notesApp(body: Parameters<typeof post>[1]['body']) {
  const controller = defineController({
    name: 'NotesController',
    prefix: '/notes',
    routes: () => ({
      create: post('/', { body, status: 201 }, () => undefined),
      list: get('/', { query: type({ 'limit?': 'string.integer.parse' }), response: type({ text: 'string', pinned: 'boolean' }).array() }, () => []),
    }),
  });
  return createApp(defineModule({ name: 'NotesModule', controllers: [controller] }));
}

describe('OpenAPI from valibot and ArkType route schemas', () => {
  it('documents a valibot body from its input side and marks it required', async () => {
    const document = generateOpenApiDocument(await notesApp(note()), { title: 'Notes', version: '1' });
    const body = document.paths['/notes']?.post?.requestBody;
    expect(body?.required, 'an object body is required').toBe(true);
    expect(body?.content['application/json']?.schema, 'valibot input side').toEqual({
      type: 'object',
      properties: { text: { type: 'string', maxLength: 140 }, pinned: { type: 'boolean', default: false } },
      required: ['text'],
    });
  });

  it('asks a valibot schema whether the body may be missing (v.optional)', async () => {
    const document = generateOpenApiDocument(await notesApp(v.optional(note())), { title: 'Notes', version: '1' });
    expect(document.paths['/notes']?.post?.requestBody?.required, 'an optional body is not required').toBe(false);
  });

  it('documents an ArkType query as parameters and an ArkType response from its output side', async () => {
    const document = generateOpenApiDocument(await notesApp(note()), { title: 'Notes', version: '1' });
    const list = document.paths['/notes']?.get;
    expect(list?.parameters, 'one query parameter per property').toEqual([{ name: 'limit', in: 'query', required: false, schema: { type: 'string', pattern: expect.any(String) } }]);
    expect(list?.responses['200']?.content?.['application/json']?.schema, 'ArkType output side').toEqual({
      type: 'array',
      items: { type: 'object', properties: { pinned: { type: 'boolean' }, text: { type: 'string' } }, required: ['pinned', 'text'] },
    });
  });

  it('documents an open schema, and throws with onUnrepresentable: throw, when the valibot converter is missing', async () => {
    forgetSchemaConverters({ installed: false });
    const app = await notesApp(note());
    const document = generateOpenApiDocument(app, { title: 'Notes', version: '1' });
    expect(document.paths['/notes']?.post?.requestBody?.content['application/json']?.schema, 'open schema that says why').toEqual({
      description: 'Open schema: no JSON Schema converter for valibot schemas is installed (install @valibot/to-json-schema).',
    });
    expect(() => generateOpenApiDocument(app, { title: 'Notes', version: '1', onUnrepresentable: 'throw' }), 'throw mode refuses an open schema').toThrow(/could not be converted/);
  });

  it('serveOpenApi loads the converter before its first build (a runtime without createRequire)', async () => {
    forgetSchemaConverters({ installed: false });
    const app = await notesApp(note());
    serveOpenApi(app, '/openapi.json', { title: 'Notes', version: '1' });
    const served = (await (await app.request('/openapi.json')).json()) as { paths: Record<string, { post?: { requestBody?: { content: Record<string, { schema: unknown }> } } }> };
    expect(served.paths['/notes']?.post?.requestBody?.content['application/json']?.schema, 'converted, not open').toMatchObject({ required: ['text'] });
  });
});
