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
      if (!PARAM_NAME.test(name)) throw new RouteDefinitionError(`Route ${path}: '${segment}' is not a valid parameter name.`);
      if (seen.has(name)) throw new RouteDefinitionError(`Route ${path}: parameter '${name}' appears twice.`);
      seen.add(name);
    }
  });
}
