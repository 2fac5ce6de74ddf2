import { createBlogApp } from '../../../examples/blog/blog-app.js';
import { BLOG_OPENAPI_OPTIONS } from '../../../examples/blog/openapi.js';
import { readTenantsConfig } from '../../../examples/tenants/config.js';
import { TENANTS_OPENAPI_OPTIONS } from '../../../examples/tenants/openapi.js';
import { createTenantsModule } from '../../../examples/tenants/tenants-module.js';
import { createApp, silentLogger } from '../../../lib/index.js';
import { generateOpenApiDocument, type OpenApiDocument } from '../../../lib/openapi/index.js';

/**
 * The documents the reference apps serve at `/openapi.json`, generated the same way, keyed by a
 * short name used for file names and messages.
 *
 * @example
 * const { blog } = await exampleDocuments();
 */
export async function exampleDocuments(): Promise<Record<'blog' | 'tenants', OpenApiDocument>> {
  // The blog as npm start serves it: CRUD, the event stream (text/event-stream) and attachments (multipart, binary).
  const blog = await createBlogApp({}, { logger: silentLogger });
  const tenants = await createApp(createTenantsModule(readTenantsConfig({ AUTH_SECRET: 'x'.repeat(32) }, () => undefined)));
  return {
    blog: generateOpenApiDocument(blog, BLOG_OPENAPI_OPTIONS),
    tenants: generateOpenApiDocument(tenants, TENANTS_OPENAPI_OPTIONS),
  };
}
