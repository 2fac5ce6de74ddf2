import { createMetadataKey, type MetadataEntry } from '../index.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';

/** Metadata key of `ApiTags`. */
export const API_TAGS = createMetadataKey<readonly string[]>('openapi:tags', { combine: 'append' });

/**
 * Tags an operation (on a route) or every operation of a controller. Controller and route tags
 * merge, controller tags first, without duplicates. Without any ApiTags an operation is tagged
 * with its controller name minus a trailing `Controller` (`PostsController` -> `Posts`).
 *
 * @example
 * defineController({ name: 'PostsController', metadata: [ApiTags('posts')], routes: () => ({}) });
 * @ApiTags('posts') @Controller('posts') class PostsController {}
 */
export function ApiTags(...tags: [string, ...string[]]): MetadataEntry<readonly string[]> {
  if (tags.length === 0 || tags.some((tag) => typeof tag !== 'string' || tag === '')) {
    throw new OpenApiGenerationError('ApiTags: give one or more non-empty tag names.');
  }
  return API_TAGS.with(Object.freeze([...tags]));
}
