import { NotFoundException } from '../../../lib/index.js';
import type { Clock, OnModuleInit } from '../../../lib/index.js';
import { createQueryRunner } from '../../../lib/postgres/index.js';
import type { PostgresStoreOptions, QueryRunner, SqlClient } from '../../../lib/postgres/index.js';
import type { CreatePost, Post, UpdatePost } from '../../blog/post-schemas.js';
import type { TenantPostsRepository } from '../tenant-posts.js';
import { migrateTenantPosts } from './tenant-posts-schema.js';

interface PostRow {
  readonly id: string;
  readonly title: string;
  readonly body: string;
  /** A Date from pg and PGlite; a string from drivers that do not parse timestamps. */
  readonly created_at: Date | string;
}

const COLUMNS = 'id, title, body, created_at';

/**
 * The next id and the post in one statement (one transaction). The upsert takes the tenant's
 * counter row lock, so concurrent creates from any number of processes queue on it and each gets
 * the next number; the first create of a tenant inserts 1 (a concurrent twin waits on the key,
 * then takes the update path). Never max(id) + 1, which two callers would read alike. Should the
 * post insert fail, the counter's advance is rolled back with it.
 */
const CREATE_SQL = `WITH counter AS (
  INSERT INTO tenant_post_counters AS c (tenant_id, last_id) VALUES ($1, 1)
  ON CONFLICT (tenant_id) DO UPDATE SET last_id = c.last_id + 1
  RETURNING c.last_id
)
INSERT INTO tenant_posts (tenant_id, id, title, body, created_at)
SELECT $1, counter.last_id::text, $2, $3, $4::timestamptz FROM counter
RETURNING ${COLUMNS}`;

/** The single existence check: a statement on one post that found no row means the tenant has no such post. */
function requirePost(row: PostRow | undefined, id: string): PostRow {
  if (row === undefined) throw new NotFoundException(`Post ${id} not found`);
  return row;
}

function toPost(row: PostRow): Post {
  const createdAt = row.created_at instanceof Date ? row.created_at : new Date(row.created_at);
  return { id: row.id, title: row.title, body: row.body, createdAt: createdAt.toISOString() };
}

/**
 * The tenants app's posts in PostgreSQL (tables from `migrateTenantPosts`), shared by every
 * instance on the database. Same behaviour as the in-memory repository: per-tenant ids "1",
 * "2", ... never reused, `createdAt` from the injected clock (sent as a parameter, never SQL
 * `now()`), 404 for an id the tenant does not have. Ids are text, so a path id such as "abc" is
 * simply not found rather than a cast error.
 *
 * @example
 * const posts = new PostgresTenantPosts(pool, systemClock, { queryTimeoutMs: 2_000 });
 * const post = await posts.create('acme', { title: 'Hello', body: '' }); // id "1" for a new tenant
 */
export class PostgresTenantPosts implements TenantPostsRepository, OnModuleInit {
  readonly #client: SqlClient;
  readonly #run: QueryRunner;
  readonly #clock: Clock;

  constructor(client: SqlClient, clock: Clock, options: PostgresStoreOptions = {}) {
    this.#client = client;
    this.#run = createQueryRunner(client, 'tenant-posts', options);
    this.#clock = clock;
  }

  /**
   * `openTenantsDatabase` has made the tables already; this makes sure for a client that was only
   * given the library's `migrate` (the in-process failure tests build the app that way). Cheap
   * and idempotent.
   */
  async onModuleInit(): Promise<void> {
    await migrateTenantPosts(this.#client);
  }

  async list(tenantId: string): Promise<Post[]> {
    // Creation order, as the in-memory store lists: decimal ids sort by length, then by text.
    const rows = await this.#run<PostRow>('list', `SELECT ${COLUMNS} FROM tenant_posts WHERE tenant_id = $1 ORDER BY length(id), id COLLATE "C"`, [tenantId]);
    return rows.map(toPost);
  }

  async get(tenantId: string, id: string): Promise<Post> {
    const rows = await this.#run<PostRow>('get', `SELECT ${COLUMNS} FROM tenant_posts WHERE tenant_id = $1 AND id = $2`, [tenantId, id]);
    return toPost(requirePost(rows[0], id));
  }

  async create(tenantId: string, input: CreatePost): Promise<Post> {
    const createdAt = new Date(this.#clock.now()).toISOString();
    const rows = await this.#run<PostRow>('create', CREATE_SQL, [tenantId, input.title, input.body, createdAt]);
    const row = rows[0];
    if (row === undefined) throw new Error('tenant-posts store: create returned no row');
    return toPost(row);
  }

  async update(tenantId: string, id: string, changes: UpdatePost): Promise<Post> {
    // One statement: an absent field (null here) keeps its value, as in the in-memory store.
    const rows = await this.#run<PostRow>(
      'update',
      `UPDATE tenant_posts SET title = COALESCE($3, title), body = COALESCE($4, body) WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
      [tenantId, id, changes.title ?? null, changes.body ?? null],
    );
    return toPost(requirePost(rows[0], id));
  }

  async remove(tenantId: string, id: string): Promise<void> {
    const rows = await this.#run<PostRow>('remove', `DELETE FROM tenant_posts WHERE tenant_id = $1 AND id = $2 RETURNING ${COLUMNS}`, [tenantId, id]);
    requirePost(rows[0], id);
  }
}
