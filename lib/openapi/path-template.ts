/**
 * The OpenAPI path template of a canonical route path (`/posts/:id` -> `/posts/{id}`), or
 * `undefined` for a wildcard route: OpenAPI cannot template "the rest of the path", so such
 * routes are left out of the document.
 *
 * @example
 * toOpenApiPath('/posts/:id'); // '/posts/{id}'
 * toOpenApiPath('/files/*');   // undefined
 */
export function toOpenApiPath(path: string): string | undefined {
  const segments = path.split('/');
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (segment === '*') return undefined;
    if (segment.startsWith(':')) segments[i] = `{${segment.slice(1)}}`;
  }
  return segments.join('/');
}
