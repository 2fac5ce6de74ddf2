import { createApp } from '../../lib/index.js';
import { generateOpenApiDocument, type OpenApiDocument, type OpenApiDocumentOptions } from '../../lib/openapi/index.js';
import { createBlogModule } from '../../examples/blog/blog-module.js';
import { BLOG_OPENAPI_OPTIONS } from '../../examples/blog/openapi.js';
import * as arktype from './post-schemas.arktype.js';
import * as valibot from './post-schemas.valibot.js';
import { createSchemaBlogModule } from './schema-blog-module.js';

/**
 * The OpenAPI documents of the blog's CRUD API with its schemas in zod (the blog itself), valibot
 * and ArkType, generated with the blog's options (plus `extra`).
 *
 * @example
 * const { zod, valibot, arktype } = await blogDocuments();
 */
export async function blogDocuments(extra: Partial<OpenApiDocumentOptions> = {}): Promise<Record<'zod' | 'valibot' | 'arktype', OpenApiDocument>> {
  const options = { ...BLOG_OPENAPI_OPTIONS, ...extra };
  return {
    zod: generateOpenApiDocument(await createApp(createBlogModule()), options),
    valibot: generateOpenApiDocument(await createApp(createSchemaBlogModule(valibot)), options),
    arktype: generateOpenApiDocument(await createApp(createSchemaBlogModule(arktype)), options),
  };
}
