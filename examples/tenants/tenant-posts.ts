import { createToken, type Clock } from '../../lib/index.js';
import { PostsStore } from '../blog/posts-store.js';
import type { CreatePost, Post, UpdatePost } from '../blog/post-schemas.js';

/**
 * Every tenant's blog posts, however they are stored: in memory ({@link InMemoryTenantPosts}) or
 * in PostgreSQL (`PostgresTenantPosts`). Ids are a decimal counter per tenant ("1", "2", ...),
 * `createdAt` an ISO 8601 time from the app's clock, a missing body ''. `get`, `update` and
 * `remove` throw `NotFoundException('Post <id> not found')` (404) for an id the tenant does not
 * have; all answer with a promise so a database can stand behind them.
 *
 * @example
 * const post = await posts.create('acme', { title: 'Hello', body: '' });
 * await posts.update('acme', post.id, { body: 'edited' });
 */
export interface TenantPostsRepository {
  list(tenantId: string): Promise<Post[]>;
  get(tenantId: string, id: string): Promise<Post>;
  create(tenantId: string, input: CreatePost): Promise<Post>;
  update(tenantId: string, id: string, changes: UpdatePost): Promise<Post>;
  remove(tenantId: string, id: string): Promise<void>;
}

/** The posts repository the post routes use; each stores module provides it. */
export const TENANT_POSTS = createToken<TenantPostsRepository>('TenantPosts');

/**
 * The posts in this process, lost on restart (for tests and demos): one blog `PostsStore` per
 * tenant, created on first use, so ids count per tenant and the 404s come from the store's own
 * single existence check.
 *
 * @example
 * const posts = new InMemoryTenantPosts(systemClock);
 */
export class InMemoryTenantPosts implements TenantPostsRepository {
  private readonly stores = new Map<string, PostsStore>();
  constructor(private readonly clock: Clock) {}

  async list(tenantId: string): Promise<Post[]> {
    return this.of(tenantId).list();
  }

  async get(tenantId: string, id: string): Promise<Post> {
    return this.of(tenantId).get(id);
  }

  async create(tenantId: string, input: CreatePost): Promise<Post> {
    return this.of(tenantId).create(input);
  }

  async update(tenantId: string, id: string, changes: UpdatePost): Promise<Post> {
    return this.of(tenantId).update(id, changes);
  }

  async remove(tenantId: string, id: string): Promise<void> {
    this.of(tenantId).remove(id);
  }

  private of(tenantId: string): PostsStore {
    let store = this.stores.get(tenantId);
    if (!store) this.stores.set(tenantId, (store = new PostsStore(this.clock)));
    return store;
  }
}
