import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, type Guard } from '../../lib/index.js';
import { ApiOperation, ApiSecurity, OpenApiGenerationError, generateOpenApiDocument, serveOpenApi } from '../../lib/openapi/index.js';
import { send } from '../http-helpers.js';

const OPTIONS = { title: 'Served', version: '1.0.0' };

class DenyAll implements Guard {
  canActivate(): boolean {
    return false;
  }
}

function moduleWith(routes: Parameters<typeof defineController>[0]['routes']) {
  return defineModule({ name: 'M', controllers: [defineController({ name: 'ThingsController', prefix: '/things', routes })] });
}

describe('serveOpenApi', () => {
  it('mounts GET <path> serving the document as application/json', async () => {
    const app = await createApp(moduleWith(() => ({ list: get('/', { response: z.array(z.string()) }, () => []) })));
    serveOpenApi(app, '/openapi.json', OPTIONS);
    const res = await send(app, 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.json).toEqual(generateOpenApiDocument(app, OPTIONS));
    expect((await send(app, 'HEAD', '/openapi.json')).status).toBe(200);
    expect((await send(app, 'POST', '/openapi.json')).status).toBe(405);
  });

  it('is public: app-wide guards do not run for it', async () => {
    const app = await createApp(moduleWith(() => ({ list: get('/', () => []) })), { guards: [DenyAll] });
    serveOpenApi(app, '/docs/openapi.json', OPTIONS);
    expect((await send(app, 'GET', '/things')).status).toBe(403);
    expect((await send(app, 'GET', '/docs/openapi.json')).status).toBe(200);
  });

  it('builds the document on the first request and serves the cached text afterwards', async () => {
    const warn = vi.fn();
    const app = await createApp(moduleWith(() => ({ odd: get('/', { response: z.object({ n: z.bigint() }) }, () => undefined) })));
    serveOpenApi(app, '/openapi.json', { ...OPTIONS, onUnrepresentable: 'warn', warn });
    expect(warn).not.toHaveBeenCalled();
    const first = await send(app, 'GET', '/openapi.json');
    expect(warn).toHaveBeenCalledTimes(1);
    const second = await send(app, 'GET', '/openapi.json');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(second.text).toBe(first.text);
  });

  it('copies the options when called', async () => {
    const app = await createApp(moduleWith(() => ({ list: get('/', () => []) })));
    const options = { ...OPTIONS };
    serveOpenApi(app, '/openapi.json', options);
    options.title = 'Changed later';
    expect(((await send(app, 'GET', '/openapi.json')).json as { info: { title: string } }).info.title).toBe('Served');
  });

  it('throws when called for an unknown security scheme or a duplicate operationId', async () => {
    const unknown = await createApp(moduleWith(() => ({ list: get('/', { metadata: [ApiSecurity('bearer')] }, () => []) })));
    expect(() => serveOpenApi(unknown, '/openapi.json', OPTIONS)).toThrow(OpenApiGenerationError);
    expect(() => serveOpenApi(unknown, '/openapi.json', { ...OPTIONS, security: ['basic'], securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } })).toThrow(/'basic'/);
    const duplicate = await createApp(
      moduleWith(() => ({
        a: get('/a', { metadata: [ApiOperation({ operationId: 'x' })] }, () => []),
        b: get('/b', { metadata: [ApiOperation({ operationId: 'x' })] }, () => []),
      })),
    );
    expect(() => serveOpenApi(duplicate, '/openapi.json', OPTIONS)).toThrow(/Duplicate operationId 'x'/);
  });

  it('throws for an unrepresentable schema only with onUnrepresentable: throw', async () => {
    const app = await createApp(moduleWith(() => ({ odd: get('/', { response: z.object({ n: z.bigint() }) }, () => undefined) })));
    expect(() => serveOpenApi(app, '/strict.json', { ...OPTIONS, onUnrepresentable: 'throw' })).toThrow(/ThingsController\.odd \(GET \/things\) response.*BigInt/);
    expect(() => serveOpenApi(app, '/open.json', OPTIONS)).not.toThrow();
    expect((await send(app, 'GET', '/open.json')).status).toBe(200);
  });

  it('rejects a path that does not start with /', async () => {
    const app = await createApp(moduleWith(() => ({})));
    expect(() => serveOpenApi(app, 'openapi.json', OPTIONS)).toThrow(TypeError);
  });
});
