import { createMetadataKey, type MetadataEntry, type Schema } from '../index.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';

/**
 * A request body documented in another media type than the route's JSON body schema.
 *
 * @example
 * const upload: ApiRequestBodyOptions = { mediaType: 'multipart/form-data', schema: z.object({ file: z.file() }) };
 */
export interface ApiRequestBodyOptions {
  /** `multipart/form-data`, `application/x-www-form-urlencoded`, `application/octet-stream`, ... */
  readonly mediaType: string;
  /** The body's shape, input side: for a form, its fields, with `z.file()` for file parts (documented as binary strings). */
  readonly schema?: Schema;
  readonly description?: string;
  /** Default true. */
  readonly required?: boolean;
}

/** Metadata key of `ApiRequestBody`: a route's own declaration replaces its controller's. */
export const API_REQUEST_BODY = createMetadataKey<ApiRequestBodyOptions>('openapi:request-body');

/**
 * Documents the request body of a route that reads it itself (an upload read with
 * `readMultipart`, a raw body) rather than through a JSON `body` schema: its media type and,
 * optionally, its shape. The runtime ignores it; the route still reads and bounds its body as it does.
 *
 * @example
 * post('/:id/attachments', { metadata: [ApiRequestBody({ mediaType: 'multipart/form-data', schema: z.object({ file: z.file() }) })] }, handler);
 * class Files { @ApiRequestBody({ mediaType: 'application/octet-stream' }) @Put(':name') put() {} }
 */
export function ApiRequestBody(options: ApiRequestBodyOptions): MetadataEntry<ApiRequestBodyOptions> {
  if (!/^[\w.+-]+\/[\w.+*-]+$/.test(options.mediaType)) {
    throw new OpenApiGenerationError(`ApiRequestBody: '${options.mediaType}' is not a media type (type/subtype).`);
  }
  return API_REQUEST_BODY.with(Object.freeze({ ...options }));
}
