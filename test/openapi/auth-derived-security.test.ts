import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post } from '../../lib/index.js';
import { defineAuthModule, Public, RequireScopes, Roles } from '../../lib/auth/index.js';
import { ApiSecurity, generateOpenApiDocument, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';
import { validateDocument } from './document-validation.js';

// An app shaped like a newcomer's todo API: everything protected, a public sign-in, an admin
// route, routes API keys may call with scopes. No ApiSecurity anywhere: the auth metadata is the
// only description of access, and the document must tell the truth from it.
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
const auth = defineAuthModule(Claims);
const Todo = z.object({ id: z.string(), text: z.string() });

const todos = defineController({
  name: 'TodosController',
  prefix: '/todos',
  routes: () => ({
    list: get('/', { response: z.array(Todo), metadata: [RequireScopes('todos:read')] }, () => []),
    create: post('/', { body: z.object({ text: z.string() }), response: Todo, status: 201, metadata: [RequireScopes('todos:write')] }, (ctx) => ({ id: '1', text: ctx.body.text })),
    purge: post('/purge', { metadata: [Roles('admin')] }, () => undefined),
    mine: get('/mine', () => []),
  }),
});
const session = defineController({
  name: 'SessionController',
  prefix: '/session',
  metadata: [Public()],
  routes: () => ({ signIn: post('/', { body: z.object({ user: z.string(), password: z.string() }) }, () => ({ token: 't' })) }),
});

const OPTIONS: OpenApiDocumentOptions = {
  title: 'Todos',
  version: '1.0.0',
  securitySchemes: {
    bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
  },
  security: ['bearer'],
};

async function documentOf(extra: Parameters<typeof defineController>[0][] = []) {
  const module = defineModule({
    name: 'TodoApp',
    imports: [auth.AuthModule.forRoot({ secret: 'a-newcomer-todo-app-secret-of-32+bytes!', protectAllRoutes: true })],
    controllers: [todos, session, ...extra.map((options) => defineController(options))],
  });
  const doc = generateOpenApiDocument(await createApp(module), OPTIONS);
  expect(await validateDocument(doc), 'a valid OpenAPI 3.1 document').toEqual([]);
  return doc;
}

describe('OpenAPI security derived from the auth metadata', () => {
  it('gives a Public() route security: [] and no 401', async () => {
    const signIn = (await documentOf()).paths['/session']?.post;
    expect(signIn?.security, 'no padlock on the sign-in').toEqual([]);
    expect(signIn?.responses, 'a public route never answers 401').not.toHaveProperty('401');
  });

  it('leaves an ordinary protected route under the document security, with its 401', async () => {
    const mine = (await documentOf()).paths['/todos/mine']?.get;
    expect(mine?.security, 'inherits the document-level requirement').toBeUndefined();
    expect(mine?.responses).toHaveProperty('401');
    expect(mine?.responses, 'no role or scope, no 403').not.toHaveProperty('403');
  });

  it('adds 403 to a route with Roles', async () => {
    const purge = (await documentOf()).paths['/todos/purge']?.post;
    expect(purge?.responses).toHaveProperty('403');
    expect(purge?.responses).toHaveProperty('401');
  });

  it('lists the API-key scheme with the route\u2019s scopes, names them in the description, and adds 403', async () => {
    const doc = await documentOf();
    const list = doc.paths['/todos']?.get;
    expect(list?.security).toEqual([{ bearer: [] }, { apiKey: ['todos:read'] }]);
    expect(list?.description).toContain('`todos:read`');
    expect(list?.responses).toHaveProperty('403');
    expect(doc.paths['/todos']?.post?.security).toEqual([{ bearer: [] }, { apiKey: ['todos:write'] }]);
  });

  it('lets ApiSecurity override what the metadata says', async () => {
    const doc = await documentOf([
      { name: 'OverrideController', prefix: '/override', routes: () => ({ open: get('/', { metadata: [RequireScopes('x:read'), ApiSecurity(false)] }, () => null) }) },
    ]);
    expect(doc.paths['/override']?.get?.security).toEqual([]);
  });
});
