// The browser side of the type-only client test (test/browser/fetch-client.test.ts): the blog's
// API as a type, from `import type` only, and a client that listens on the live WebSocket,
// creates a post, reads it back and sends an invalid one. Bundled by the test with esbuild
// (browser, minified) against dist/.
import { createFetchClient, type ApiOf } from '../../../lib/client/index.js';
import type { postsController } from '../../../examples/blog/blog-module.js';
import type { createBlogExtrasController } from '../../../examples/blog/blog-extras.js';

type BlogApi = ApiOf<[typeof postsController, ReturnType<typeof createBlogExtrasController>]>;

/** Runs the calls against the blog at `baseUrl` and reports what came back. */
export async function exercise(baseUrl: string) {
  const api = createFetchClient<BlogApi>(baseUrl);
  const live = api.socket('/posts/live');
  await live.opened;
  const pushed = new Promise<string>((resolve) => live.onMessage((post) => resolve(post.title)));
  const created = await api.POST('/posts', { body: { title: 'From the type-only client' } });
  if (!created.ok) return { error: `create answered ${created.status}` };
  const read = await api.GET('/posts/:id', { params: { id: created.data.id } });
  const invalid = await api.POST('/posts', { body: { title: '' } });
  const pushedTitle = await pushed;
  live.close();
  return {
    created: { status: created.status, data: created.data },
    read: read.ok ? { status: read.status, title: read.data.title } : { status: read.status },
    invalid: invalid.ok ? { status: invalid.status } : { status: invalid.status, problem: invalid.problem },
    pushedTitle,
  };
}
