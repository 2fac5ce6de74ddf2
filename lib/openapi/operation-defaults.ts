/**
 * The operationId of a route that sets none: `<controller>_<route name>`, e.g.
 * `PostsController_list`. Stable (it depends only on names, not on order) and unique within a
 * controller; two controllers with the same name in different modules collide, which the
 * generator reports (rename one, or set `ApiOperation({ operationId })`).
 *
 * @example
 * defaultOperationId('PostsController', 'list'); // 'PostsController_list'
 */
export function defaultOperationId(controller: string, route: string): string {
  return `${controller}_${route}`;
}

/**
 * The tag of an operation with no ApiTags: its controller's name minus a trailing `Controller`.
 *
 * @example
 * defaultTag('PostsController'); // 'Posts'
 * defaultTag('Health');          // 'Health'
 */
export function defaultTag(controller: string): string {
  return controller.replace(/Controller$/, '') || controller;
}
