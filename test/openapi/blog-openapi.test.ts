import { describe, expect, it } from 'vitest';
import { BLOG_OPENAPI_OPTIONS as CLASS_BLOG_OPTIONS } from '../../examples/blog-classes/openapi.js';
import { createClassBlogModule } from '../../examples/blog-classes/blog-module.js';
import { createBlogModule } from '../../examples/blog/blog-module.js';
import { BLOG_OPENAPI_OPTIONS } from '../../examples/blog/openapi.js';
import { GreetingModule } from '../../examples/greeting/greeting-module.js';
import { createApp, silentLogger } from '../../lib/index.js';
import { createBlogApp } from '../../examples/blog/blog-app.js';
import { generateOpenApiDocument, serveOpenApi, type OpenApiDocument } from '../../lib/openapi/index.js';
import { send } from '../http-helpers.js';
import { validateDocument } from './document-validation.js';
import { expectGolden } from './golden.js';

async function served(app: Awaited<ReturnType<typeof createApp>>): Promise<OpenApiDocument> {
  const res = await send(app, 'GET', '/openapi.json');
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/json');
  return res.json as OpenApiDocument;
}

describe('the example blogs describe themselves', () => {
  it('builder and class blog serve identical documents at GET /openapi.json (CRUD, event stream, attachments)', async () => {
    // The blog as npm start serves it (createBlogApp mounts /openapi.json itself).
    const builder = await createBlogApp({}, { logger: silentLogger });
    const classes = await createApp(createClassBlogModule(), { logger: silentLogger });
    serveOpenApi(classes, '/openapi.json', CLASS_BLOG_OPTIONS);
    const fromBuilder = await served(builder);
    const fromClasses = await served(classes);
    expect(fromClasses).toEqual(fromBuilder);
    expect(JSON.stringify(fromClasses)).toBe(JSON.stringify(fromBuilder));
    expect(fromBuilder).toEqual(generateOpenApiDocument(builder, BLOG_OPENAPI_OPTIONS));
  });

  it('the blog document matches its reviewed golden file', async () => {
    const doc = generateOpenApiDocument(await createApp(createBlogModule()), BLOG_OPENAPI_OPTIONS);
    const { actual, expected } = expectGolden('blog.json', doc);
    expect(actual).toBe(expected);
  });

  it('the greeting document matches its reviewed golden file', async () => {
    const doc = generateOpenApiDocument(await createApp(GreetingModule), { title: 'Tessera greeting', version: '1.0.0' });
    const { actual, expected } = expectGolden('greeting.json', doc);
    expect(actual).toBe(expected);
  });

  it('every example document passes the OpenAPI 3.1 validator and Ajv 2020 strict', async () => {
    const docs = [
      generateOpenApiDocument(await createApp(createBlogModule()), BLOG_OPENAPI_OPTIONS),
      generateOpenApiDocument(await createApp(createClassBlogModule()), BLOG_OPENAPI_OPTIONS),
      generateOpenApiDocument(await createApp(GreetingModule), { title: 'Tessera greeting', version: '1.0.0' }),
    ];
    for (const doc of docs) expect(await validateDocument(doc)).toEqual([]);
  });

  it('documents the blog routes as SPEC.md lists them', async () => {
    const doc = generateOpenApiDocument(await createApp(createBlogModule()), BLOG_OPENAPI_OPTIONS);
    expect(Object.keys(doc.paths)).toEqual(['/posts', '/posts/{id}']);
    expect(Object.keys(doc.paths['/posts'] ?? {})).toEqual(['get', 'post']);
    expect(Object.keys(doc.paths['/posts/{id}'] ?? {})).toEqual(['get', 'patch', 'delete']);
    const create = doc.paths['/posts']?.post;
    expect(Object.keys(create?.responses ?? {})).toEqual(['201', '400', 'default']);
    expect(create?.requestBody?.required).toBe(true);
    // CreatePost's input side: body has a default, so only title is required; written inline
    // (see placeRequestBody) so that generated clients keep `body` optional.
    expect(create?.requestBody?.content['application/json']?.schema).toMatchObject({ type: 'object', required: ['title'] });
    expect(doc.components.schemas.CreatePost).toBeUndefined();
    expect(doc.paths['/posts/{id}']?.get?.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    // The blogs declare DELETE's 204 and the 404 of every lookup with ApiResponse, so no guess is needed.
    expect(Object.keys(doc.paths['/posts/{id}']?.delete?.responses ?? {})).toEqual(['204', '404', 'default']);
    expect(Object.keys(doc.paths['/posts/{id}']?.get?.responses ?? {})).toEqual(['200', '404', 'default']);
    expect(Object.keys(doc.paths['/posts/{id}']?.patch?.responses ?? {})).toEqual(['200', '400', '404', 'default']);
  });
});

describe('the tenants app describes itself', () => {
  it('serves a valid document with bearer, browser-session cookie and API-key schemes, public auth routes and scoped post routes', async () => {
    const { createTenantsModule } = await import('../../examples/tenants/tenants-module.js');
    const { readTenantsConfig } = await import('../../examples/tenants/config.js');
    const { serveTenantsOpenApi, TENANTS_OPENAPI_OPTIONS } = await import('../../examples/tenants/openapi.js');
    const app = await createApp(createTenantsModule(readTenantsConfig({ AUTH_SECRET: 'x'.repeat(32) }, () => undefined)));
    serveTenantsOpenApi(app);
    const doc = await served(app);
    expect(await validateDocument(doc)).toEqual([]);
    expect(Object.keys(doc.components.securitySchemes ?? {})).toEqual(['bearer', 'browserSession', 'apiKey']);
    expect(doc.components.securitySchemes?.browserSession).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-tessera-access' });
    expect(doc.security).toEqual([{ bearer: [] }, { browserSession: [] }, { apiKey: [] }]);
    expect(doc.paths['/auth/sign-in']?.post?.security).toEqual([]);
    expect(doc.paths['/auth/browser/sign-in']?.post?.security).toEqual([]);
    expect(doc.paths['/tenants/{tenantId}/posts']?.get?.security).toEqual([{ bearer: [] }, { browserSession: [] }, { apiKey: ['posts:read'] }]);
    expect(doc.paths['/tenants/{tenantId}/posts']?.post?.security).toEqual([{ bearer: [] }, { browserSession: [] }, { apiKey: ['posts:write'] }]);
    expect(doc.paths['/tenants/{tenantId}/api-keys']?.post?.security).toEqual([{ bearer: [] }, { browserSession: [] }]);
    expect(Object.keys(doc.paths['/tenants/{tenantId}/posts/{id}']?.delete?.responses ?? {})).toEqual(['204', '401', '403', '404', '429', 'default']);
    const { actual, expected } = expectGolden('tenants.json', generateOpenApiDocument(app, TENANTS_OPENAPI_OPTIONS));
    expect(actual).toBe(expected);
  });
});
