import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './blog-api.generated.js';

/**
 * What a blog user writes with the types openapi-typescript generated (default options) from the
 * blog's document and openapi-fetch. Type-checked by `npm run typecheck`; run by
 * openapi-client.test.ts against the blog.
 *
 * @example
 * const client = createBlogClient('http://localhost', (request) => app.fetch(request));
 */
export function createBlogClient(baseUrl: string, fetch: (request: Request) => Response | Promise<Response>): Client<paths> {
  // openapi-fetch wants a promise; an app may answer a synchronous route with a plain Response.
  return createClient<paths>({ baseUrl, fetch: async (request) => fetch(request) });
}

/** Creates a post giving only its title: `body` has a default, so the client may omit it. */
export async function createTitledPost(client: Client<paths>, title: string) {
  return client.POST('/posts', { body: { title } });
}

/** The create call a mistaken user writes: `title` is required, so this does not compile. */
export async function createUntitledPost(client: Client<paths>) {
  // @ts-expect-error title is required on CreatePost's input side
  return client.POST('/posts', { body: { body: 'no title' } });
}

/** Reads one post; `id` is a required path parameter. */
export async function readPost(client: Client<paths>, id: string) {
  return client.GET('/posts/{id}', { params: { path: { id } } });
}

/** Updates the title only: every UpdatePost field is optional. */
export async function renamePost(client: Client<paths>, id: string, title: string) {
  return client.PATCH('/posts/{id}', { params: { path: { id } }, body: { title } });
}
