import type { App } from '../index.js';
import { generateOpenApiDocument } from './generate-openapi-document.js';
import { resolveOptions, type OpenApiDocumentOptions } from './openapi-options.js';
import { planOperations } from './operation-plan.js';
import { loadSchemaConverters } from './standard-json-schema.js';

/**
 * Mounts `GET <path>` serving the app's OpenAPI document as `application/json`. The route is
 * mounted with `app.mount`, so it is public: guards and interceptors (even `protectAllRoutes`)
 * never run for it.
 *
 * Configuration mistakes fail here, at boot: unknown security schemes and duplicate
 * operationIds always; with `onUnrepresentable: 'throw'`, schemas too (the document is then
 * generated now, which is the only way to find them). Otherwise the document is built on the
 * first request (after `loadSchemaConverters()`) and the JSON text cached for every later one. The options are copied now, so
 * later changes to the object do not leak into the served document.
 *
 * @example
 * const app = await createApp(createBlogModule());
 * serveOpenApi(app, '/openapi.json', { title: 'Tessera blog', version: '1.0.0' });
 * await serve(app, { port: 3000 }); // GET http://localhost:3000/openapi.json
 */
export function serveOpenApi(app: Pick<App, 'routes' | 'addRawRoute'>, path: string, options: OpenApiDocumentOptions): void {
  if (typeof path !== 'string' || !path.startsWith('/')) throw new TypeError(`serveOpenApi: path must start with '/', got ${String(path)}.`);
  const settings: OpenApiDocumentOptions = { ...options };
  planOperations(app.routes, resolveOptions(settings));
  const build = () => JSON.stringify(generateOpenApiDocument(app, settings));
  let body: string | undefined = settings.onUnrepresentable === 'throw' ? build() : undefined;
  app.addRawRoute('GET', path, async () => {
    // The optional converters of non-zod schemas are loaded first: on a runtime that cannot load
    // them synchronously (Workers), this is what makes valibot schemas documented rather than open.
    if (body === undefined) await loadSchemaConverters();
    body ??= build();
    return new Response(body, { status: 200, headers: { 'content-type': 'application/json' } });
  });
}
