import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post, type Guard, type RouteDefinition } from '../../lib/index.js';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags, OpenApiGenerationError, generateOpenApiDocument, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';
import { validateDocument } from './document-validation.js';

const OPTIONS: OpenApiDocumentOptions = { title: 'Test', version: '0.0.1' };
const BEARER = { bearer: { type: 'http', scheme: 'bearer' }, apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' } } as const;

class DenyAll implements Guard {
  canActivate() {
    return false;
  }
}

async function documentOf(routes: Record<string, RouteDefinition>, options: Partial<OpenApiDocumentOptions> = {}) {
  const c = defineController({ name: 'ThingsController', prefix: '/things', routes: () => routes });
  const app = await createApp(defineModule({ name: 'TestModule', providers: [DenyAll], controllers: [c] }));
  const doc = generateOpenApiDocument(app, { ...OPTIONS, ...options });
  expect(await validateDocument(doc), 'the document is valid OpenAPI 3.1').toEqual([]);
  return doc;
}

describe('document-level options', () => {
  it('emits servers, license, contact and externalDocs as given', async () => {
    const doc = await documentOf({ list: get('/', () => []) }, {
      servers: [{ url: 'https://api.example.com', description: 'Production' }, { url: '/' }],
      license: { name: 'MIT', identifier: 'MIT' },
      contact: { name: 'API team', email: 'api@example.com' },
      externalDocs: { url: 'https://example.com/guide', description: 'Guide' },
    });
    expect(doc.servers).toEqual([{ url: 'https://api.example.com', description: 'Production' }, { url: '/' }]);
    expect(doc.info.license).toEqual({ name: 'MIT', identifier: 'MIT' });
    expect(doc.info.contact).toEqual({ name: 'API team', email: 'api@example.com' });
    expect(doc.externalDocs).toEqual({ url: 'https://example.com/guide', description: 'Guide' });
    expect(Object.keys(doc)).toEqual(['openapi', 'info', 'servers', 'tags', 'externalDocs', 'paths', 'components']);
  });

  it('lists configured tags first, in their order, then every other used tag, sorted', async () => {
    const doc = await documentOf(
      { a: get('/a', { metadata: [ApiTags('Zeta')] }, () => 1), b: get('/b', { metadata: [ApiTags('Alpha')] }, () => 1), c: get('/c', () => 1) },
      { tags: [{ name: 'Things', description: 'All things' }, { name: 'Unused', description: 'Kept although no operation uses it' }] },
    );
    expect(doc.tags).toEqual([
      { name: 'Things', description: 'All things' },
      { name: 'Unused', description: 'Kept although no operation uses it' },
      { name: 'Alpha' },
      { name: 'Zeta' },
    ]);
  });

  it('does not share the caller\u2019s objects', async () => {
    const servers = [{ url: '/' }];
    const doc = await documentOf({ list: get('/', () => []) }, { servers });
    (doc.servers as { url: string }[])[0]!.url = '/changed';
    expect(servers[0]!.url).toBe('/');
  });

  it.each([
    ['an empty server list', { servers: [] }, /`servers` must be a non-empty array/],
    ['a server without url', { servers: [{ description: 'x' }] }, /`servers\[0\]` needs a non-empty string `url`/],
    ['a tag without name', { tags: [{ description: 'x' }] }, /`tags\[0\]` needs a non-empty string `name`/],
    ['a tag listed twice', { tags: [{ name: 'A' }, { name: 'A' }] }, /lists 'A' twice/],
    ['a licence without name', { license: { identifier: 'MIT' } }, /`license` needs a non-empty string `name`/],
    ['a licence with identifier and url', { license: { name: 'MIT', identifier: 'MIT', url: 'https://x' } }, /`identifier` or `url`, not both/],
    ['a contact email that is not a string', { contact: { email: 42 } }, /`contact`: `email` must be a string/],
    ['externalDocs without url', { externalDocs: { description: 'x' } }, /`externalDocs` needs a non-empty string `url`/],
  ])('refuses %s with an error naming the option', async (_case, options, message) => {
    const app = await createApp(defineModule({ name: 'M' }));
    expect(() => generateOpenApiDocument(app, { ...OPTIONS, ...(options as object) })).toThrow(OpenApiGenerationError);
    expect(() => generateOpenApiDocument(app, { ...OPTIONS, ...(options as object) })).toThrow(message);
  });
});

describe('default summaries', () => {
  it.each([
    ['list', 'List'],
    ['getById', 'Get by id'],
    ['listPosts', 'List posts'],
    ['sign_in', 'Sign in'],
    ['readHTMLPage', 'Read html page'],
  ])('route %s gets the summary %s', async (name, summary) => {
    const doc = await documentOf({ [name]: get(`/${name}`, () => 1) });
    expect(doc.paths[`/things/${name}`]?.get?.summary).toBe(summary);
  });

  it('keeps an explicit ApiOperation summary', async () => {
    const doc = await documentOf({ list: get('/', { metadata: [ApiOperation({ summary: 'All the things' })] }, () => []) });
    expect(doc.paths['/things']?.get?.summary).toBe('All the things');
  });
});

describe('4xx responses the generator can infer', () => {
  const statuses = (doc: Awaited<ReturnType<typeof documentOf>>, path: string, method: 'get' | 'post') => Object.keys(doc.paths[path]?.[method]?.responses ?? {});

  it('documents 400 for a route with a body or query schema', async () => {
    const doc = await documentOf({ create: post('/', { body: z.object({ a: z.string() }) }, () => 1), search: get('/search', { query: z.object({ q: z.string() }) }, () => 1) });
    expect(statuses(doc, '/things', 'post')).toContain('400');
    expect(statuses(doc, '/things/search', 'get')).toContain('400');
  });

  it('documents 401 when the effective security asks for a credential, and not for a public route', async () => {
    const doc = await documentOf(
      { secured: get('/secured', () => 1), open: get('/open', { metadata: [ApiSecurity(false)] }, () => 1) },
      { securitySchemes: BEARER, security: ['bearer'] },
    );
    expect(statuses(doc, '/things/secured', 'get')).toEqual(['200', '204', '401', 'default']);
    expect(statuses(doc, '/things/open', 'get')).toEqual(['200', '204', 'default']);
  });

  it('documents 403 when a requirement lists scopes', async () => {
    const doc = await documentOf({ scoped: get('/scoped', { metadata: [ApiSecurity({ apiKey: ['things:read'] })] }, () => 1) }, { securitySchemes: BEARER });
    expect(statuses(doc, '/things/scoped', 'get')).toEqual(['200', '204', '401', '403', 'default']);
  });

  it('documents 403 for a route with a guard of its own (a guard answering false is a 403)', async () => {
    const doc = await documentOf({ guarded: get('/guarded', { guards: [DenyAll] }, () => 1) });
    expect(statuses(doc, '/things/guarded', 'get')).toEqual(['200', '204', '403', 'default']);
  });

  it('lets a declared ApiResponse replace an inferred one', async () => {
    const doc = await documentOf(
      { secured: get('/secured', { metadata: [ApiResponse({ status: 401, description: 'Sign in first' })] }, () => 1) },
      { securitySchemes: BEARER, security: ['bearer'] },
    );
    expect(doc.paths['/things/secured']?.get?.responses['401']?.description).toBe('Sign in first');
  });

  it('documents a declared 404', async () => {
    const doc = await documentOf({ one: get('/:id', { metadata: [ApiResponse({ status: 404, description: 'No such thing' })] }, () => 1) });
    expect(statuses(doc, '/things/{id}', 'get')).toContain('404');
  });
});
