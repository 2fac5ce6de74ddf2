import { createMetadataKey, type MetadataEntry } from '../index.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';

/**
 * Operation fields of `ApiOperation`. All optional; see the README table for defaults.
 *
 * @example
 * const options: ApiOperationOptions = { summary: 'List posts', deprecated: true };
 */
export interface ApiOperationOptions {
  /** Default `<Controller>_<route>`, e.g. `PostsController_list`. Must be unique in the document. */
  readonly operationId?: string;
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated?: boolean;
}

/** Metadata key of `ApiOperation`. */
export const API_OPERATION = createMetadataKey<ApiOperationOptions>('openapi:operation', { combine: 'merge' });

/**
 * Documents an operation: id, summary, description, deprecation. A metadata entry, so it works
 * as a builder option and as a decorator. On a controller its summary, description and
 * deprecated act as defaults for every route (its operationId is ignored there: it cannot be
 * shared); a route's own ApiOperation wins field by field.
 *
 * @example
 * get('/', { metadata: [ApiOperation({ summary: 'List posts' })] }, () => store.list());
 * class PostsController { @ApiOperation({ summary: 'List posts' }) @Get() list() {} }
 */
export function ApiOperation(options: ApiOperationOptions): MetadataEntry<ApiOperationOptions> {
  if (options.operationId !== undefined && (typeof options.operationId !== 'string' || options.operationId === '')) {
    throw new OpenApiGenerationError('ApiOperation: operationId must be a non-empty string.');
  }
  return API_OPERATION.with(Object.freeze({ ...options }));
}
