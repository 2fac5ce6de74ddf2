import { createMetadataKey, readRouteMetadata, type MetadataEntry, type MetadataKey } from '../index.js';
import type { RouteInfo } from '../index.js';
import type { Schema } from '../index.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';

/**
 * One declared response.
 *
 * @example
 * const notFound: ApiResponseOptions = { status: 404, description: 'No such post' };
 */
export interface ApiResponseOptions {
  readonly status: number;
  /** Default: the status's reason phrase (`Not Found`). */
  readonly description?: string;
  /**
   * The body, output side. Statuses 400 and above are `application/problem+json` and default to
   * the Problem schema; below 400 the body is `application/json` (or `mediaType`) and absent
   * without a schema.
   */
  readonly schema?: Schema;
  /**
   * A success answer in another media type than JSON: `text/event-stream` for an event stream
   * (documented as a string), `application/octet-stream` or a file's type for a binary answer
   * (documented without a schema, as OpenAPI 3.1 writes bytes), unless `schema` says more.
   */
  readonly mediaType?: string;
}

const PREFIX = 'openapi:response:';
const keys = new Map<number, MetadataKey<ApiResponseOptions>>();

/**
 * Declares a response of an operation (on a route) or of every operation of a controller. Each
 * status has its own metadata key (`openapi:response:<status>`), so any number stack in both
 * styles; for the same status the route's declaration wins over the controller's, and a later
 * builder entry (or a higher decorator) wins over an earlier one.
 *
 * @example
 * del('/:id', { metadata: [ApiResponse({ status: 204 }), ApiResponse({ status: 404 })] }, handler);
 * class PostsController { @ApiResponse({ status: 404, description: 'No such post' }) @Get(':id') get() {} }
 */
export function ApiResponse(options: ApiResponseOptions): MetadataEntry<ApiResponseOptions> {
  const { status } = options;
  if (!Number.isInteger(status) || status < 100 || status > 599) {
    throw new OpenApiGenerationError(`ApiResponse: status must be an integer from 100 to 599, got ${String(status)}.`);
  }
  if (options.mediaType !== undefined && (status >= 400 || !/^[\w.+-]+\/[\w.+*-]+$/.test(options.mediaType))) {
    throw new OpenApiGenerationError(`ApiResponse: mediaType must be a media type (type/subtype) on a status below 400, got '${options.mediaType}' on ${status}.`);
  }
  let key = keys.get(status);
  if (!key) keys.set(status, (key = createMetadataKey<ApiResponseOptions>(`${PREFIX}${status}`)));
  return key.with(Object.freeze({ ...options }));
}

/**
 * The declared responses of a route by status: one `replace` key per status, so a route's
 * declaration for a status wins over its controller's (read through `readRouteMetadata`).
 *
 * @example
 * readApiResponses(route).get(404)?.description;
 */
export function readApiResponses(route: Pick<RouteInfo, 'metadata' | 'controllerMetadata'>): Map<number, ApiResponseOptions> {
  const statuses = new Set<number>();
  for (const record of [route.controllerMetadata, route.metadata]) {
    for (const id of Object.keys(record)) if (id.startsWith(PREFIX)) statuses.add((record[id] as ApiResponseOptions).status);
  }
  const responses = new Map<number, ApiResponseOptions>();
  for (const status of statuses) {
    const value = readRouteMetadata(route, keys.get(status) as MetadataKey<ApiResponseOptions>);
    if (value !== undefined) responses.set(status, value);
  }
  return responses;
}
