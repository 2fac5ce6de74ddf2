// Creates or upgrades the tables of the PostgreSQL stores (tessera-http/auth/postgres), then exits.
//
//   DATABASE_URL=postgres://user:pass@host:5432/db node --import ./scripts/register-swc.mjs scripts/postgres/migrate.ts
//   node --import ./scripts/register-swc.mjs scripts/postgres/migrate.ts --pglite examples/tenants/data
//
// Idempotent and safe to run while instances are starting (an advisory lock serialises every
// migrate call). Applications on the published package call `migrate(pool)` the same way.
import { migrate } from '../../lib/postgres/index.js';

/** The server and database of a URL, never its user name or password. */
function describeUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || '5432'}${parsed.pathname}`;
}

const pgliteFlag = process.argv.indexOf('--pglite');
if (pgliteFlag !== -1) {
  const dataDir = process.argv[pgliteFlag + 1];
  if (dataDir === undefined) throw new Error('--pglite needs a data directory');
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(dataDir);
  const { version } = await migrate(db);
  await db.close();
  console.log(`migrated PGlite database in ${dataDir} to schema version ${version}`);
} else {
  const url = process.env.DATABASE_URL;
  if (url === undefined || url === '') {
    console.error('Set DATABASE_URL (or pass --pglite <data dir>).');
    process.exit(2);
  }
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 1, connectionTimeoutMillis: 10_000 });
  try {
    const { version } = await migrate(pool);
    console.log(`migrated ${describeUrl(url)} to schema version ${version}`);
  } finally {
    await pool.end();
  }
}
