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

/**
 * The summary of an operation that sets none: its route name in words, first letter capitalised
 * (`list` -> `List`, `getById` -> `Get by id`, `sign_in` -> `Sign in`). Linters and documentation
 * UIs want every operation to have one, and the route name is what the author called it.
 *
 * @example
 * defaultSummary('listPosts'); // 'List posts'
 */
export function defaultSummary(route: string): string {
  const words = route
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/[_\-\s]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? route : words.charAt(0).toUpperCase() + words.slice(1);
}
