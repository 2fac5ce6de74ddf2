import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post } from '../../lib/index.js';
import { browserSessionSecurityScheme, defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore, Public, RequireScopes } from '../../lib/auth/index.js';
import { generateOpenApiDocument } from '../../lib/openapi/index.js';
import { validateDocument } from './document-validation.js';

// An app with browser sessions: the guarded routes accept a bearer token or the access-token
// cookie; the document says so with a cookie apiKey scheme beside the bearer one.
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
const auth = defineAuthModule(Claims);

const notes = defineController({
  name: 'NotesController',
  prefix: '/notes',
  routes: () => ({
    list: get('/', { guards: [auth.JwtAuthGuard] }, () => []),
    create: post('/', { guards: [auth.AuthGuard], metadata: [RequireScopes('notes:write')] }, () => ({ ok: true })),
    about: get('/about', { metadata: [Public()] }, () => 'notes'),
  }),
});

async function documentOf(browser: { domain?: string } = {}) {
  const module = defineModule({
    name: 'NotesApp',
    imports: [
      auth.AuthModule.forRoot({
        secret: 'a-browser-session-app-secret-of-32+bytes',
        issuing: { credentialStore: InMemoryCredentialStore, refreshTokenStore: InMemoryRefreshTokenStore },
        browser,
      }),
    ],
    controllers: [notes],
  });
  const doc = generateOpenApiDocument(await createApp(module), {
    title: 'Notes',
    version: '1.0.0',
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      browserSession: browserSessionSecurityScheme(browser),
      apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    },
    security: ['bearer', 'browserSession'],
  });
  expect(await validateDocument(doc), 'a valid OpenAPI 3.1 document').toEqual([]);
  return doc;
}

describe('OpenAPI: the browser-session cookie scheme', () => {
  it('declares the access-token cookie as an apiKey scheme in a cookie, with the CSRF rule', async () => {
    const scheme = (await documentOf()).components?.securitySchemes?.browserSession;
    expect(scheme).toMatchObject({ type: 'apiKey', in: 'cookie', name: '__Host-tessera-access' });
    expect(scheme?.description).toContain('X-CSRF-Token');
  });

  it('names the __Secure- cookie when the sessions span subdomains', async () => {
    expect((await documentOf({ domain: 'example.com' })).components?.securitySchemes?.browserSession).toMatchObject({ name: '__Secure-tessera-access' });
  });

  it('leaves guarded routes under bearer or cookie, and public ones under none', async () => {
    const doc = await documentOf();
    expect(doc.security, 'the document-level alternatives').toEqual([{ bearer: [] }, { browserSession: [] }]);
    expect(doc.paths['/notes']?.get?.security, 'inherits the document requirement').toBeUndefined();
    expect(doc.paths['/notes/about']?.get?.security).toEqual([]);
  });

  it('gives route scopes to the header API-key scheme, never to the cookie scheme declared before it', async () => {
    const create = (await documentOf()).paths['/notes']?.post;
    expect(create?.security).toEqual([{ bearer: [] }, { browserSession: [] }, { apiKey: ['notes:write'] }]);
  });
});
