// The tenants' API through the type-only client, for the bundle-size check
// (test/browser/fetch-client.test.ts): a controller whose module imports stores, auth and pg.
import { createFetchClient, type ApiOf } from '../../../lib/client/index.js';
import type { tenantPostsController } from '../../../examples/tenants/tenant-posts-controller.js';
import type { apiKeysController } from '../../../examples/tenants/api-keys-controller.js';

type TenantsApi = ApiOf<[typeof tenantPostsController, typeof apiKeysController]>;

/** Lists a tenant's posts with a bearer token. */
export async function listPosts(baseUrl: string, token: string, tenantId: string) {
  const api = createFetchClient<TenantsApi>({ baseUrl, headers: { authorization: `Bearer ${token}` } });
  const answer = await api.GET('/tenants/:tenantId/posts', { params: { tenantId } });
  return answer.ok ? answer.data.map((post) => post.title) : answer.problem;
}
