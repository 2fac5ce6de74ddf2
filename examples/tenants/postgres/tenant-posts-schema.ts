import type { SqlClient } from '../../../lib/postgres/index.js';

/**
 * The example's own tables, next to the library's `tessera_*` ones (the library's version table
 * is not ours to write in, so this schema is not a library `Migration`):
 * - `tenant_posts`: the posts, keyed by tenant and the tenant's own decimal id.
 * - `tenant_post_counters`: the last id handed out per tenant; ids are never reused, even after
 *   a delete, like the in-memory store's counter.
 *
 * One `DO` statement (one transaction, runnable on any pooled connection and by PGlite's
 * single-statement `query`). Two instances starting together could both pass `IF NOT EXISTS`
 * and collide in the catalog, so an advisory lock ("tnts", 1; the library locks "tsra", 1)
 * serialises them. Fixed text: nothing is interpolated. Change it only by appending idempotent
 * statements, as a database may already hold the tables.
 */
const TENANT_POSTS_SCHEMA = `DO $tenant_posts_schema$
BEGIN
  PERFORM pg_advisory_xact_lock(1953395827, 1);
  CREATE TABLE IF NOT EXISTS tenant_posts (
    tenant_id text NOT NULL,
    id text NOT NULL,
    title text NOT NULL,
    body text NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (tenant_id, id)
  );
  CREATE TABLE IF NOT EXISTS tenant_post_counters (
    tenant_id text PRIMARY KEY,
    last_id bigint NOT NULL
  );
END
$tenant_posts_schema$`;

/**
 * Creates the posts tables if they are missing. Idempotent and safe from several processes at
 * once; `openTenantsDatabase` runs it right after the library's `migrate`.
 *
 * @example
 * await migrate(pool);
 * await migrateTenantPosts(pool);
 */
export async function migrateTenantPosts(client: SqlClient): Promise<void> {
  await client.query(TENANT_POSTS_SCHEMA, []);
}
