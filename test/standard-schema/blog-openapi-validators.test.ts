import { describe, expect, it } from 'vitest';
import { createApp } from '../../lib/index.js';
import { generateOpenApiDocument, type JsonSchema, type OpenApiDocument } from '../../lib/openapi/index.js';
import { createBlogModule } from '../../examples/blog/blog-module.js';
import { BLOG_OPENAPI_OPTIONS } from '../../examples/blog/openapi.js';
import * as zod from '../../examples/blog/post-schemas.js';
import { blogDocuments } from './blog-documents.js';
import { createSchemaBlogModule } from './schema-blog-module.js';

// Issue 39: the blog's schemas in valibot and ArkType produce OpenAPI documents that describe the
// same request and response shapes as the zod blog's. The documents differ where the libraries
// say different but equivalent things, which the comparison normalises away, listed here:
// - zod names the schemas it has ids for (`.meta({ id })`) as components; the others are inline
//   (references are followed);
// - key order (ArkType sorts properties; `required` lists are compared as sets);
// - `default`: ArkType's input side does not state one (the shape is the same: not required);
// - `additionalProperties: false` on an output side (zod and ArkType state that a stripped
//   object has no other keys; valibot does not), and an empty `required` (valibot writes one).

/** Every operation's request body and JSON responses, by `METHOD path status`, normalised. */
function shapes(document: OpenApiDocument): Record<string, unknown> {
  const components = document.components?.schemas ?? {};
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const record = value as Record<string, unknown>;
    if (typeof record.$ref === 'string') return resolve(components[record.$ref.replace('#/components/schemas/', '')]);
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(record).sort()) {
      const child = record[key];
      if (key === 'default') continue;
      if (key === 'additionalProperties' && child === false) continue;
      if (key === 'required' && Array.isArray(child)) {
        if (child.length > 0) out[key] = [...child].sort();
        continue;
      }
      out[key] = resolve(child);
    }
    return out;
  };
  const found: Record<string, unknown> = {};
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      const body = operation.requestBody?.content?.['application/json']?.schema;
      if (body !== undefined) found[`${where} request`] = resolve(body);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        const schema = response.content?.['application/json']?.schema;
        if (schema !== undefined) found[`${where} ${status}`] = resolve(schema);
      }
    }
  }
  return found;
}

/** The document less its schemas: paths, operations, parameters, statuses and media types. */
function skeleton(document: OpenApiDocument): unknown {
  return JSON.parse(JSON.stringify(document.paths, (key, value: unknown) => (key === 'schema' ? undefined : value)));
}

describe('the blog documented from zod, valibot and ArkType schemas', () => {
  it('the schema-parametrised blog with the zod schemas gives exactly the zod blog document', async () => {
    const blog = generateOpenApiDocument(await createApp(createBlogModule()), BLOG_OPENAPI_OPTIONS);
    const same = generateOpenApiDocument(await createApp(createSchemaBlogModule(zod)), BLOG_OPENAPI_OPTIONS);
    expect(same, 'the module the valibot and ArkType blogs use is the blog module').toEqual(blog);
  });

  it('valibot: the same request and response shapes as zod', async () => {
    const documents = await blogDocuments();
    expect(shapes(documents.valibot), 'valibot shapes').toEqual(shapes(documents.zod));
  });

  it('ArkType: the same request and response shapes as zod', async () => {
    const documents = await blogDocuments();
    expect(shapes(documents.arktype), 'ArkType shapes').toEqual(shapes(documents.zod));
  });

  it('the same operations, parameters, statuses and media types', async () => {
    const documents = await blogDocuments();
    expect(skeleton(documents.valibot), 'valibot operations').toEqual(skeleton(documents.zod));
    expect(skeleton(documents.arktype), 'ArkType operations').toEqual(skeleton(documents.zod));
  });

  it('nothing is left open: the documents generate with onUnrepresentable: throw', async () => {
    await expect(blogDocuments({ onUnrepresentable: 'throw' }), 'every schema converted').resolves.toBeDefined();
  });

  it('the comparison sees a difference: a title without its minimum length is not the same shape', async () => {
    const documents = await blogDocuments();
    const changed = structuredClone(documents.valibot);
    const create = changed.paths['/posts']?.post?.requestBody?.content?.['application/json']?.schema as JsonSchema;
    delete ((create.properties as Record<string, JsonSchema>).title as JsonSchema).minLength;
    expect(shapes(changed), 'a dropped minLength must show').not.toEqual(shapes(documents.zod));
  });
});
