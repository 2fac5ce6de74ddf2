import { RouteDefinitionError } from './route-definition-error.js';
/**
 * The parameters a route path declares, as a type: `'/posts/:id'` gives `{ id: string }`,
 * a trailing `*` gives `{ '*': string }`.
 *
 * @example
 * type P = PathParams<'/tenants/:tenantId/posts/:id'>; // { tenantId: string; id: string }
 */
export type PathParams<P extends string> = SegmentParams<`/${P}`>;

/** Only a `:` right after a `/` starts a parameter, as the router reads it (others are refused at boot). */
type SegmentParams<P extends string> = P extends `${string}/:${infer Name}/${infer Rest}`
  ? { readonly [K in Name]: string } & SegmentParams<`/${Rest}`>
  : P extends `${string}/:${infer Name}`
    ? { readonly [K in Name]: string }
    : P extends `${string}*`
      ? { readonly '*': string }
      : unknown;

/**
 * Joins a controller prefix and a route path into the canonical form the router uses: a
 * leading `/`, no empty segments, no trailing `/` (except the root itself).
 *
 * @example
 * joinPaths('/posts/', '/:id'); // '/posts/:id'
 * joinPaths('', '/');           // '/'
 */
export function joinPaths(prefix: string, path: string): string {
  const segments = `${prefix}/${path}`.split('/').filter((s) => s !== '');
  return `/${segments.join('/')}`;
}

/**
 * A route path with its parameter names erased: two paths of one shape match the same requests
 * (the router refuses a second route of a method and shape; Bun's native routes need one name per shape).
 *
 * @example
 * routeShape('/posts/:id/comments/:commentId'); // '/posts/:/comments/:'
 */
export function routeShape(path: string): string {
  return path.replace(/\/:[^/]+/g, '/:');
}

/**
 * The parameter names of a canonical path, in order; `*` for a wildcard.
 *
 * @example
 * pathParamNames('/posts/:id/*'); // ['id', '*']
 */
export function pathParamNames(path: string): string[] {
  const names: string[] = [];
  for (const segment of path.split('/')) {
    if (segment.startsWith(':')) names.push(segment.slice(1));
    else if (segment === '*') names.push('*');
  }
  return names;
}

const PARAM_NAME = /^[A-Za-z_$][\w$]*$/;

/** The refusal of `/posts/:id?`: not supported, and the two routes that say the same. */
function optionalParameter(path: string, segments: readonly string[], index: number): RouteDefinitionError {
  const without = `/${segments.slice(0, index).join('/')}`;
  const withIt = `/${[...segments.slice(0, index), (segments[index] as string).slice(0, -1), ...segments.slice(index + 1)].join('/')}`;
  const hint =
    index === segments.length - 1
      ? ` Declare two routes instead, '${without}' and '${withIt}' (one function of yours can serve both).`
      : ` Declare a route for each shape instead, such as '${withIt}'.`;
  return new RouteDefinitionError(`Route ${path}: optional parameters ('${segments[index]}') are not supported.${hint}`);
}

/**
 * Checks a canonical route path, throwing at boot for what the router cannot serve: an
 * unnamed or oddly named parameter, a repeated parameter name, `*` before the last segment, or a
 * `:` inside a segment (`/prefix-:id`), which would otherwise be a literal while the handler's
 * type promises a parameter.
 *
 * @example
 * assertValidRoutePath('/files/*'); // ok
 * assertValidRoutePath('/a/:id/:id'); // throws: repeated name
 */
export function assertValidRoutePath(path: string): void {
  const segments = path.split('/').slice(1);
  const seen = new Set<string>();
  segments.forEach((segment, index) => {
    if (segment === '*') {
      if (index !== segments.length - 1) throw new RouteDefinitionError(`Route ${path}: '*' may only be the last segment.`);
      return;
    }
    if (segment.includes('*')) throw new RouteDefinitionError(`Route ${path}: '*' must be a whole segment.`);
    if (segment.indexOf(':', 1) !== -1) {
      throw new RouteDefinitionError(`Route ${path}: ':' may only start a segment ('${segment}'); a parameter is a whole segment, e.g. '/:id', and the handler can split it.`);
    }
    if (segment.startsWith(':')) {
      const name = segment.slice(1);
      if (name.endsWith('?') && PARAM_NAME.test(name.slice(0, -1))) throw optionalParameter(path, segments, index);
      if (!PARAM_NAME.test(name)) throw new RouteDefinitionError(`Route ${path}: '${segment}' is not a valid parameter name.`);
      if (seen.has(name)) throw new RouteDefinitionError(`Route ${path}: parameter '${name}' appears twice.`);
      seen.add(name);
    }
  });
}
