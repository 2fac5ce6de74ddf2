import { createBlogApp } from '../../../examples/blog/blog-app.js';
import { BLOG_OPENAPI_OPTIONS } from '../../../examples/blog/openapi.js';
import { readTenantsConfig } from '../../../examples/tenants/config.js';
import { TENANTS_OPENAPI_OPTIONS } from '../../../examples/tenants/openapi.js';
import { createTenantsModule } from '../../../examples/tenants/tenants-module.js';
import { createApp, silentLogger } from '../../../lib/index.js';
import { generateOpenApiDocument, type OpenApiDocument } from '../../../lib/openapi/index.js';
import { blogDocuments } from '../../standard-schema/blog-documents.js';

/**
 * The documents the reference apps serve at `/openapi.json`, generated the same way, keyed by a
 * short name used for file names and messages.
 *
 * @example
 * const { blog } = await exampleDocuments();
 */
export async function exampleDocuments(): Promise<Record<'blog' | 'tenants' | 'blog-valibot' | 'blog-arktype', OpenApiDocument>> {
  // The blog as npm start serves it: CRUD, the event stream (text/event-stream) and attachments (multipart, binary).
  const blog = await createBlogApp({}, { logger: silentLogger });
  const tenants = await createApp(createTenantsModule(readTenantsConfig({ AUTH_SECRET: 'x'.repeat(32) }, () => undefined)));
  // The blog's CRUD API with its schemas in valibot and in ArkType (issue 39).
  const { valibot, arktype } = await blogDocuments();
  return {
    blog: generateOpenApiDocument(blog, BLOG_OPENAPI_OPTIONS),
    tenants: generateOpenApiDocument(tenants, TENANTS_OPENAPI_OPTIONS),
    'blog-valibot': valibot,
    'blog-arktype': arktype,
  };
}
