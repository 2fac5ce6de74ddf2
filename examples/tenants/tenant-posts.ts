import type { Clock } from '../../lib/index.js';
import { PostsStore } from '../blog/posts-store.js';

/** One blog store per tenant, created on first use. */
export class TenantPosts {
  private readonly stores = new Map<string, PostsStore>();
  constructor(private readonly clock: Clock) {}

  of(tenantId: string): PostsStore {
    let store = this.stores.get(tenantId);
    if (!store) this.stores.set(tenantId, (store = new PostsStore(this.clock)));
    return store;
  }
}
