import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, del, get, patch, post, put, type RouteDefinition } from '../../lib/index.js';
import {
  ApiOperation,
  ApiRequestBody,
  ApiResponse,
  ApiSecurity,
  ApiTags,
  OpenApiGenerationError,
  generateOpenApiDocument,
  type OpenApiDocumentOptions,
} from '../../lib/openapi/index.js';
import { validateDocument } from './document-validation.js';

const OPTIONS: OpenApiDocumentOptions = { title: 'Test', version: '0.0.1' };

async function appOf(routes: Record<string, RouteDefinition>, controller: Partial<Parameters<typeof defineController>[0]> = {}) {
  const c = defineController({ name: 'ThingsController', prefix: '/things', ...controller, routes: () => routes });
  return createApp(defineModule({ name: 'TestModule', controllers: [c] }));
}

async function generate(routes: Record<string, RouteDefinition>, options: Partial<OpenApiDocumentOptions> = {}) {
  const doc = generateOpenApiDocument(await appOf(routes), { ...OPTIONS, ...options });
  expect(await validateDocument(doc)).toEqual([]);
  return doc;
}

describe('document skeleton', () => {
  it('has openapi 3.1.0, info, the used tags, paths and components.schemas.Problem, and nothing optional unless asked', async () => {
    const doc = await generate({ list: get('/', () => []) });
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info).toEqual({ title: 'Test', version: '0.0.1' });
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'tags', 'paths', 'components']);
    expect(Object.keys(doc.components)).toEqual(['schemas']);
    expect(doc.components.schemas.Problem).toMatchObject({ type: 'object', required: ['type', 'title', 'status'] });
  });

  it('keeps Problem even for an app without routes, and takes the description', async () => {
    const doc = generateOpenApiDocument({ routes: [] }, { ...OPTIONS, description: 'About' });
    expect(doc.info.description).toBe('About');
    expect(doc.paths).toEqual({});
    expect(Object.keys(doc.components.schemas)).toEqual(['Problem']);
  });

  it('returns a fresh object per call', async () => {
    const app = await appOf({ list: get('/', { response: z.object({ a: z.string() }) }, () => ({ a: '' })) });
    const first = generateOpenApiDocument(app, OPTIONS);
    const second = generateOpenApiDocument(app, OPTIONS);
    expect(second).toEqual(first);
    expect(second).not.toBe(first);
    (first.paths['/things']?.get?.responses['200']?.content?.['application/json']?.schema as { type: string }).type = 'changed';
    expect(generateOpenApiDocument(app, OPTIONS)).toEqual(second);
  });

  it('rejects options without title or version', () => {
    expect(() => generateOpenApiDocument({ routes: [] }, { version: '1' } as unknown as OpenApiDocumentOptions)).toThrow(OpenApiGenerationError);
    expect(() => generateOpenApiDocument({ routes: [] }, { title: 'T' } as unknown as OpenApiDocumentOptions)).toThrow(/version/);
    expect(() => generateOpenApiDocument({ routes: [] }, { ...OPTIONS, onUnrepresentable: 'loud' as 'open' })).toThrow(/onUnrepresentable/);
  });
});

describe('paths and parameters', () => {
  it('turns :param into {param} with required string path parameters, and leaves wildcard routes out', async () => {
    const doc = await generate({
      show: get('/:id/comments/:commentId', () => undefined),
      files: get('/files/*', () => undefined),
    });
    expect(Object.keys(doc.paths)).toEqual(['/things/{id}/comments/{commentId}']);
    expect(doc.paths['/things/{id}/comments/{commentId}']?.get?.parameters).toEqual([
      { name: 'id', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'commentId', in: 'path', required: true, schema: { type: 'string' } },
    ]);
  });

  it('puts several methods of one path under that path, lowercase', async () => {
    const doc = await generate({ a: get('/', () => undefined), b: post('/', () => undefined), c: put('/', () => undefined), d: patch('/', () => undefined), e: del('/', () => undefined) });
    expect(Object.keys(doc.paths['/things'] ?? {})).toEqual(['get', 'post', 'put', 'patch', 'delete']);
  });

  it('makes one query parameter per property of an object query schema, input side', async () => {
    const Paging = z.object({
      page: z.coerce.number().int().min(1).default(1).describe('1-based page'),
      q: z.string(),
      tag: z.array(z.string()).optional(),
    });
    const doc = await generate({ list: get('/', { query: Paging }, () => []) });
    expect(doc.paths['/things']?.get?.parameters).toEqual([
      { name: 'page', in: 'query', required: false, description: '1-based page', schema: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 1, description: '1-based page' } },
      { name: 'q', in: 'query', required: true, schema: { type: 'string' } },
      { name: 'tag', in: 'query', required: false, schema: { type: 'array', items: { type: 'string' } } },
    ]);
  });

  it('describes a query schema that is not a plain object as one free-form parameter', async () => {
    const doc = await generate({ list: get('/', { query: z.record(z.string(), z.string()) }, () => []) });
    expect(doc.paths['/things']?.get?.parameters).toEqual([
      { name: 'query', in: 'query', required: false, style: 'form', explode: true, schema: { type: 'object', propertyNames: { type: 'string' }, additionalProperties: { type: 'string' } } },
    ]);
  });

  it('documents no parameters and no body for routes without schemas', async () => {
    const doc = await generate({ list: get('/', () => []) });
    expect(doc.paths['/things']?.get?.parameters).toBeUndefined();
    expect(doc.paths['/things']?.get?.requestBody).toBeUndefined();
  });
});

describe('request bodies and responses', () => {
  const Item = z.object({ name: z.string(), size: z.number().default(0), at: z.date() });

  it('uses the input side for request bodies and the output side for responses', async () => {
    const doc = await generate({ create: post('/', { body: Item, response: Item, status: 201 }, (ctx) => ctx.body) });
    const op = doc.paths['/things']?.post;
    expect(op?.requestBody).toEqual({
      required: true,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { name: { type: 'string' }, size: { type: 'number', default: 0 }, at: { type: 'string', format: 'date-time' } },
            required: ['name', 'at'],
          },
        },
      },
    });
    expect(op?.responses['201']?.content?.['application/json']?.schema).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, size: { type: 'number', default: 0 }, at: { type: 'string', format: 'date-time' } },
      required: ['name', 'size', 'at'],
      additionalProperties: false,
    });
    expect(JSON.stringify(doc)).not.toContain('$schema');
  });

  it('marks a body optional when its schema accepts undefined', async () => {
    const doc = await generate({ touch: post('/', { body: z.object({ note: z.string() }).optional() }, () => undefined) });
    expect(doc.paths['/things']?.post?.requestBody?.required).toBe(false);
  });

  it('answers 400 for validating routes and always has a problem+json default', async () => {
    const doc = await generate({ create: post('/', { body: Item }, () => undefined), list: get('/', () => []) });
    const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };
    expect(doc.paths['/things']?.post?.responses['400']?.content).toEqual(problem);
    expect(doc.paths['/things']?.post?.responses.default).toEqual({ description: expect.any(String), content: problem });
    expect(doc.paths['/things']?.get?.responses['400']).toBeUndefined();
    expect(doc.paths['/things']?.get?.responses.default?.content).toEqual(problem);
  });

  it('documents a 204 route without content, even with a response schema', async () => {
    const doc = await generate({ remove: del('/:id', { status: 204, response: Item }, () => undefined) });
    expect(doc.paths['/things/{id}']?.delete?.responses).toMatchObject({ '204': { description: 'No Content' } });
    expect(doc.paths['/things/{id}']?.delete?.responses['204']?.content).toBeUndefined();
  });

  it('documents a route without a response schema as "any JSON under its status, or 204"', async () => {
    const doc = await generate({ remove: del('/:id', () => undefined) });
    expect(doc.paths['/things/{id}']?.delete?.responses).toEqual({
      '200': { description: 'OK', content: { 'application/json': { schema: {} } } },
      '204': { description: 'No Content' },
      default: expect.any(Object),
    });
  });

  it('lets ApiResponse declare responses; a declared success replaces the guess', async () => {
    const Gone = z.object({ reason: z.string() });
    const doc = await generate({
      remove: del('/:id', { metadata: [ApiResponse({ status: 204, description: 'Deleted' }), ApiResponse({ status: 404 }), ApiResponse({ status: 410, schema: Gone })] }, () => undefined),
      show: get('/:id', { response: Item, metadata: [ApiResponse({ status: 200, description: 'The thing' })] }, () => undefined),
      accepted: post('/jobs', { metadata: [ApiResponse({ status: 202, schema: Gone })] }, () => undefined),
    });
    expect(doc.paths['/things/{id}']?.delete?.responses).toEqual({
      '204': { description: 'Deleted' },
      '404': { description: 'Not Found', content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } } },
      '410': { description: 'Gone', content: { 'application/problem+json': { schema: { type: 'object', properties: { reason: { type: 'string' } }, required: ['reason'], additionalProperties: false } } } },
      default: expect.any(Object),
    });
    expect(doc.paths['/things/{id}']?.get?.responses['200']).toEqual({ description: 'The thing' });
    expect(Object.keys(doc.paths['/things/jobs']?.post?.responses ?? {})).toEqual(['202', 'default']);
  });

  it('merges controller ApiResponses under the route ones, per status', async () => {
    const app = await appOf(
      { a: get('/a', { metadata: [ApiResponse({ status: 401, description: 'Route says' })] }, () => undefined), b: get('/b', () => undefined) },
      { metadata: [ApiResponse({ status: 401, description: 'Controller says' }), ApiResponse({ status: 403 })] },
    );
    const doc = generateOpenApiDocument(app, OPTIONS);
    expect(doc.paths['/things/a']?.get?.responses['401']?.description).toBe('Route says');
    expect(doc.paths['/things/b']?.get?.responses['401']?.description).toBe('Controller says');
    expect(doc.paths['/things/b']?.get?.responses['403']?.description).toBe('Forbidden');
  });

  it('rejects an ApiResponse status outside 100..599 where it is written', () => {
    expect(() => ApiResponse({ status: 99 })).toThrow(OpenApiGenerationError);
    expect(() => ApiResponse({ status: 200.5 })).toThrow(/status/);
  });
});

describe('named schemas', () => {
  it('puts a schema with .meta({ id }) once under components and $refs it everywhere', async () => {
    const Author = z.object({ name: z.string() }).meta({ id: 'Author', description: 'Who wrote it' });
    const Note = z.object({ id: z.string(), author: Author }).meta({ id: 'Note' });
    const doc = await generate({
      list: get('/', { response: z.array(Note) }, () => []),
      show: get('/:id', { response: Note }, () => undefined),
      author: get('/:id/author', { response: Author }, () => undefined),
    });
    expect(doc.paths['/things']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({ type: 'array', items: { $ref: '#/components/schemas/Note' } });
    expect(doc.paths['/things/{id}']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Note' });
    expect(doc.paths['/things/{id}/author']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Author' });
    expect(Object.keys(doc.components.schemas)).toEqual(['Author', 'Note', 'Problem']);
    expect(doc.components.schemas.Note).toEqual({
      type: 'object',
      properties: { id: { type: 'string' }, author: { $ref: '#/components/schemas/Author' } },
      required: ['id', 'author'],
      additionalProperties: false,
    });
    expect(doc.components.schemas.Author).toMatchObject({ description: 'Who wrote it' });
    expect(doc.components.schemas.Author).not.toHaveProperty('id');
  });

  it('names the input side <id>Input when it differs from the output side and is referenced', async () => {
    const Draft = z.object({ title: z.string(), body: z.string().default('') }).meta({ id: 'Draft' });
    const Batch = z.object({ drafts: z.array(Draft) });
    const Same = z.strictObject({ n: z.number() }).meta({ id: 'Same' });
    const doc = await generate({
      create: post('/', { body: Batch, response: Draft }, () => undefined),
      same: put('/', { body: Same, response: Same }, () => undefined),
    });
    expect(doc.paths['/things']?.post?.requestBody?.content['application/json']?.schema).toMatchObject({
      properties: { drafts: { type: 'array', items: { $ref: '#/components/schemas/DraftInput' } } },
    });
    expect(doc.paths['/things']?.post?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Draft' });
    expect(doc.components.schemas.DraftInput).toMatchObject({ required: ['title'] });
    expect(doc.components.schemas.Draft).toMatchObject({ required: ['title', 'body'] });
    // A strict object reads the same on both sides: one component.
    expect(Object.keys(doc.components.schemas).filter((n) => n.startsWith('Same'))).toEqual(['Same']);
  });

  it('writes a request body root with defaulted optional fields inline, so client generators keep them optional', async () => {
    const Draft = z.object({ title: z.string(), body: z.string().default('') }).meta({ id: 'Draft' });
    const Plain = z.object({ title: z.string() }).meta({ id: 'Plain' });
    const doc = await generate({
      create: post('/', { body: Draft, response: Draft }, () => undefined),
      plain: put('/', { body: Plain }, () => undefined),
    });
    expect(doc.paths['/things']?.post?.requestBody?.content['application/json']?.schema).toEqual({
      type: 'object',
      properties: { title: { type: 'string' }, body: { default: '', type: 'string' } },
      required: ['title'],
    });
    expect(doc.components.schemas.DraftInput, 'no component is left unreferenced').toBeUndefined();
    // Without a defaulted optional field a named body stays a reference.
    expect(doc.paths['/things']?.put?.requestBody?.content['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Plain' });
  });

  it('gives a recursive schema without an id a component named after its first use', async () => {
    interface Tree { name: string; children: Tree[] }
    const Tree: z.ZodType<Tree> = z.object({ name: z.string(), get children() { return z.array(Tree); } });
    const doc = await generate({ tree: get('/tree', { response: Tree }, () => undefined) });
    expect(doc.paths['/things/tree']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/ThingsController_tree_response' });
    expect(doc.components.schemas.ThingsController_tree_response).toMatchObject({
      properties: { children: { type: 'array', items: { $ref: '#/components/schemas/ThingsController_tree_response' } } },
    });
  });

  it('keeps a recursive named schema referring to its component', async () => {
    interface Node { value: number; next?: Node }
    const Node: z.ZodType<Node> = z.object({ value: z.number(), get next() { return Node.optional(); } }).meta({ id: 'Node' });
    const doc = await generate({ head: get('/head', { response: Node }, () => undefined) });
    expect(doc.components.schemas.Node).toMatchObject({ properties: { next: { $ref: '#/components/schemas/Node' } } });
  });

  it('does not let two different schemas share a component: the second is <id>_2 and reported', async () => {
    const A = z.object({ a: z.string() }).meta({ id: 'Thing' });
    const B = z.object({ b: z.string() }).meta({ id: 'Thing' });
    const warn = vi.fn();
    const doc = await generate({ a: get('/a', { response: A }, () => undefined), b: get('/b', { response: B }, () => undefined) }, { onUnrepresentable: 'warn', warn });
    expect(doc.paths['/things/b']?.get?.responses['200']?.content?.['application/json']?.schema).toEqual({ $ref: '#/components/schemas/Thing_2' });
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("schema id 'Thing' is shared"));
  });

  it('never lets a user schema named Problem replace the built-in one', async () => {
    const Mine = z.object({ oops: z.boolean() }).meta({ id: 'Problem' });
    const doc = await generate({ a: get('/a', { response: Mine }, () => undefined) });
    expect(doc.components.schemas.Problem).toMatchObject({ required: ['type', 'title', 'status'] });
    expect(doc.components.schemas.Problem_2).toMatchObject({ properties: { oops: { type: 'boolean' } } });
  });
});

describe('unrepresentable schemas', () => {
  const Odd = z.object({ n: z.bigint(), ok: z.string() });
  const routes = () => ({ create: post('/', { body: Odd }, () => undefined) });

  it('open (default): the part becomes {} silently', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const doc = await generate(routes());
    expect(doc.paths['/things']?.post?.requestBody?.content['application/json']?.schema).toMatchObject({ properties: { n: {}, ok: { type: 'string' } } });
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('warn: the same document, and one report naming the route and the place', async () => {
    const warn = vi.fn();
    const doc = await generate(routes(), { onUnrepresentable: 'warn', warn });
    expect(doc).toEqual(await generate(routes()));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/ThingsController\.create \(POST \/things\) request body: properties\.n: BigInt cannot be represented/);
  });

  it('warn defaults to console.warn', async () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await generate(routes(), { onUnrepresentable: 'warn' });
    expect(spy).toHaveBeenCalledTimes(1);
    spy.mockRestore();
  });

  it('throw: throws naming the route', async () => {
    const app = await appOf(routes());
    expect(() => generateOpenApiDocument(app, { ...OPTIONS, onUnrepresentable: 'throw' })).toThrow(OpenApiGenerationError);
    expect(() => generateOpenApiDocument(app, { ...OPTIONS, onUnrepresentable: 'throw' })).toThrow(/ThingsController\.create \(POST \/things\) request body.*BigInt/);
  });

  it('reports a problem inside a shared named schema once, naming the first route', async () => {
    const Money = z.object({ cents: z.bigint() }).meta({ id: 'Money' });
    const warn = vi.fn();
    const doc = await generate(
      { a: get('/a', { response: Money }, () => undefined), b: get('/b', { response: z.array(Money) }, () => undefined) },
      { onUnrepresentable: 'warn', warn },
    );
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(/ThingsController\.a \(GET \/things\/a\) response: in schema Money: properties\.cents: BigInt/);
    expect(doc.components.schemas.Money).toEqual({ type: 'object', properties: { cents: {} }, required: ['cents'], additionalProperties: false });
  });

  it('a schema converts the same whether alone or together with others', async () => {
    // Fresh schema objects each time: conversions are cached per object.
    const make = () => z.object({ n: z.bigint(), at: z.date(), tags: z.array(z.string()).optional() });
    const alone = await generate({ a: get('/a', { response: make() }, () => undefined) });
    const shared = make();
    const together = await generate({
      x: post('/x', { body: z.object({ other: z.string() }), response: z.object({ shared }) }, () => undefined),
      a: get('/a', { response: shared }, () => undefined),
    });
    expect(together.paths['/things/a']?.get?.responses['200']).toEqual(alone.paths['/things/a']?.get?.responses['200']);
  });

  it('z.date() is never a problem: it is a date-time string', async () => {
    const app = await appOf({ a: get('/', { response: z.object({ at: z.date() }) }, () => undefined) });
    const doc = generateOpenApiDocument(app, { ...OPTIONS, onUnrepresentable: 'throw' });
    expect(doc.paths['/things']?.get?.responses['200']?.content?.['application/json']?.schema).toMatchObject({ properties: { at: { type: 'string', format: 'date-time' } } });
  });

  it('a transform is fine on the input side and open on the output side', async () => {
    const Len = z.object({ s: z.string().transform((s) => s.length) });
    const doc = await generate({ a: post('/', { body: Len, response: Len }, (ctx) => ctx.body) });
    expect(doc.paths['/things']?.post?.requestBody?.content['application/json']?.schema).toMatchObject({ properties: { s: { type: 'string' } } });
    expect(doc.paths['/things']?.post?.responses['200']?.content?.['application/json']?.schema).toMatchObject({ properties: { s: {} } });
  });

  it('a schema that cannot be converted at all becomes an open schema saying why', async () => {
    const Broken = z.object({ a: z.string() });
    // Duplicate ids inside one schema make zod's converter give up on the whole schema.
    const Twice = z.object({ x: z.object({ p: z.string() }).meta({ id: 'Dup' }), y: z.object({ q: z.string() }).meta({ id: 'Dup' }) });
    const doc = await generate({ a: post('/', { body: Twice, response: Broken }, () => undefined) });
    const schema = doc.paths['/things']?.post?.requestBody?.content['application/json']?.schema;
    expect(Object.keys(schema ?? {})).toEqual(['description']);
    expect(schema?.description).toMatch(/^Open schema: this schema could not be converted to JSON Schema \(.*Duplicate schema id "Dup"/);
    const app = await appOf({ a: post('/', { body: Twice }, () => undefined) });
    expect(() => generateOpenApiDocument(app, { ...OPTIONS, onUnrepresentable: 'throw' })).toThrow(/request body.*could not be converted/);
  });
});

describe('operation metadata', () => {
  it('derives operationIds from controller and route names, and tags from the controller name', async () => {
    const doc = await generate({ list: get('/', () => []) });
    expect(doc.paths['/things']?.get).toMatchObject({ operationId: 'ThingsController_list', tags: ['Things'] });
  });

  it('takes operationId, summary, description, deprecated from ApiOperation and merges controller and route tags', async () => {
    const app = await appOf(
      { list: get('/', { metadata: [ApiOperation({ operationId: 'listThings', summary: 'List', description: 'All of them', deprecated: true }), ApiTags('read', 'things')] }, () => []) },
      { metadata: [ApiTags('things'), ApiOperation({ summary: 'Fallback', operationId: 'ignored' })] },
    );
    const doc = generateOpenApiDocument(app, OPTIONS);
    expect(doc.paths['/things']?.get).toMatchObject({
      operationId: 'listThings',
      summary: 'List',
      description: 'All of them',
      deprecated: true,
      tags: ['things', 'read'],
    });
  });

  it('uses a controller ApiOperation as defaults, never its operationId', async () => {
    const app = await appOf({ a: get('/a', () => undefined), b: get('/b', () => undefined) }, { metadata: [ApiOperation({ operationId: 'shared', deprecated: true })] });
    const doc = generateOpenApiDocument(app, OPTIONS);
    expect(doc.paths['/things/a']?.get).toMatchObject({ operationId: 'ThingsController_a', deprecated: true });
    expect(doc.paths['/things/b']?.get).toMatchObject({ operationId: 'ThingsController_b', deprecated: true });
  });

  it('throws when two operations share an operationId', async () => {
    const app = await appOf({
      a: get('/a', { metadata: [ApiOperation({ operationId: 'same' })] }, () => undefined),
      b: get('/b', { metadata: [ApiOperation({ operationId: 'same' })] }, () => undefined),
    });
    expect(() => generateOpenApiDocument(app, OPTIONS)).toThrow(OpenApiGenerationError);
    expect(() => generateOpenApiDocument(app, OPTIONS)).toThrow(/Duplicate operationId 'same': ThingsController\.a \(GET \/things\/a\) and ThingsController\.b/);
  });

  it('reports colliding derived operationIds (same controller name in two modules)', async () => {
    const one = defineController({ name: 'Dup', prefix: '/one', routes: () => ({ list: get('/', () => []) }) });
    const two = defineController({ name: 'Dup', prefix: '/two', routes: () => ({ list: get('/', () => []) }) });
    const app = await createApp(defineModule({ name: 'Root', imports: [defineModule({ name: 'Other', controllers: [two] })], controllers: [one] }));
    expect(() => generateOpenApiDocument(app, OPTIONS)).toThrow(/Duplicate operationId 'Dup_list'/);
  });

  it('rejects malformed helper arguments where they are written', () => {
    expect(() => ApiOperation({ operationId: '' })).toThrow(OpenApiGenerationError);
    expect(() => (ApiTags as (...t: string[]) => unknown)()).toThrow(OpenApiGenerationError);
  });
});

describe('security', () => {
  const schemes = {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: 'https://auth.example/token', scopes: { 'things:read': 'Read things' } } } },
  };

  it('passes securitySchemes through and turns the global security option into requirement objects', async () => {
    const doc = await generate({ list: get('/', () => []) }, { securitySchemes: schemes, security: ['bearer', { oauth: ['things:read'] }] });
    expect(doc.components.securitySchemes).toEqual(schemes);
    expect(doc.components.securitySchemes).not.toBe(schemes);
    expect(doc.security).toEqual([{ bearer: [] }, { oauth: ['things:read'] }]);
    expect(doc.paths['/things']?.get?.security).toBeUndefined();
  });

  it('has a security key on an operation only when ApiSecurity applies; route over controller over global', async () => {
    const app = await appOf(
      {
        inherits: get('/a', () => undefined),
        own: get('/b', { metadata: [ApiSecurity({ bearer: [], apiKey: [] })] }, () => undefined),
        open: get('/c', { metadata: [ApiSecurity(false)] }, () => undefined),
      },
      { metadata: [ApiSecurity('apiKey', 'bearer')] },
    );
    const doc = generateOpenApiDocument(app, { ...OPTIONS, securitySchemes: schemes, security: ['bearer'] });
    expect(await validateDocument(doc)).toEqual([]);
    expect(doc.paths['/things/a']?.get?.security).toEqual([{ apiKey: [] }, { bearer: [] }]);
    expect(doc.paths['/things/b']?.get?.security).toEqual([{ bearer: [], apiKey: [] }]);
    expect(doc.paths['/things/c']?.get?.security).toEqual([]);
  });

  it('ApiSecurity(false) on a route makes it public under a secured controller', async () => {
    const app = await appOf({ health: get('/health', { metadata: [ApiSecurity(false)] }, () => undefined) }, { metadata: [ApiSecurity('bearer')] });
    const doc = generateOpenApiDocument(app, { ...OPTIONS, securitySchemes: schemes });
    expect(doc.paths['/things/health']?.get?.security).toEqual([]);
    expect(doc.security).toBeUndefined();
  });

  it('throws when a requirement names a scheme missing from securitySchemes', async () => {
    const app = await appOf({ a: get('/a', { metadata: [ApiSecurity('nope')] }, () => undefined) });
    expect(() => generateOpenApiDocument(app, { ...OPTIONS, securitySchemes: schemes })).toThrow(/ApiSecurity on ThingsController\.a \(GET \/things\/a\) names security scheme 'nope'/);
    expect(() => generateOpenApiDocument(app, OPTIONS)).toThrow(/no securitySchemes are declared/);
    const plain = await appOf({ a: get('/a', () => undefined) });
    expect(() => generateOpenApiDocument(plain, { ...OPTIONS, securitySchemes: schemes, security: ['bearer', 'basic'] })).toThrow(/The security option names security scheme 'basic'/);
  });

  it('rejects malformed schemes and requirements', () => {
    expect(() => generateOpenApiDocument({ routes: [] }, { ...OPTIONS, securitySchemes: { x: { scheme: 'bearer' } as never } })).toThrow(/string `type`/);
    expect(() => (ApiSecurity as (...a: unknown[]) => unknown)()).toThrow(OpenApiGenerationError);
    expect(() => (ApiSecurity as (...a: unknown[]) => unknown)(false, 'bearer')).toThrow(/only argument/);
    expect(() => ApiSecurity({ bearer: 'all' as never })).toThrow(/array of strings/);
  });
});

describe('non-JSON routes', () => {
  it('documents an event stream as text/event-stream, not as JSON', async () => {
    const doc = await generate({ events: get('/events', { metadata: [ApiResponse({ status: 200, mediaType: 'text/event-stream', description: 'Post events' })] }, () => new Response('')) });
    const responses = doc.paths['/things/events']?.get?.responses ?? {};
    expect(Object.keys(responses['200']?.content ?? {})).toEqual(['text/event-stream']);
    expect(responses['200']?.content?.['text/event-stream']?.schema).toMatchObject({ type: 'string' });
    expect(responses, 'no invented 204 beside the declared success').not.toHaveProperty('204');
  });

  it('documents a binary answer with its media type and no schema', async () => {
    const doc = await generate({ file: get('/file', { metadata: [ApiResponse({ status: 200, mediaType: 'image/png' })] }, () => new Response(new Uint8Array(1))) });
    expect(doc.paths['/things/file']?.get?.responses['200']?.content).toEqual({ 'image/png': {} });
  });

  it('documents a multipart upload with its fields, file parts as binary strings', async () => {
    const Upload = z.object({ title: z.string(), file: z.file() });
    const doc = await generate({ upload: post('/upload', { metadata: [ApiRequestBody({ mediaType: 'multipart/form-data', schema: Upload })] }, () => undefined) });
    const body = doc.paths['/things/upload']?.post?.requestBody;
    expect(Object.keys(body?.content ?? {})).toEqual(['multipart/form-data']);
    expect(body?.content['multipart/form-data']?.schema).toMatchObject({
      type: 'object',
      properties: { title: { type: 'string' }, file: { type: 'string', format: 'binary' } },
      required: ['title', 'file'],
    });
  });

  it('refuses a media type on an error status, or one that is not type/subtype', () => {
    expect(() => ApiResponse({ status: 404, mediaType: 'text/plain' })).toThrow(OpenApiGenerationError);
    expect(() => ApiRequestBody({ mediaType: 'multipart' })).toThrow(OpenApiGenerationError);
  });
});
