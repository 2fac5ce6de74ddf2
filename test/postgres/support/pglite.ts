import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll } from 'vitest';
import { migrate, MIGRATIONS } from '../../../lib/postgres/index.js';

// Its package.json is not in its `exports`, so it is read by path.
const pgliteVersion = (JSON.parse(readFileSync(new URL('../../../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * A dump of a freshly migrated PGlite database, shared by every test process: starting PGlite
 * from it takes ~1 s, against 3-10 s for PGlite's own initdb on a busy 2-core machine. The name
 * carries the PGlite version and a hash of the migrations, so a change to either makes a new one.
 */
const CACHE = join(
  tmpdir(),
  `tessera-pglite-${pgliteVersion}-${createHash('sha256').update(JSON.stringify(MIGRATIONS)).digest('hex').slice(0, 12)}.tgz`,
);

/**
 * A migrated PGlite database, in memory or (with `dataDir`) in a directory, started from the
 * shared dump when there is one. Falls back to a fresh database if the dump is missing or bad.
 *
 * @example
 * const db = await createMigratedPGlite();
 */
export async function createMigratedPGlite(dataDir?: string): Promise<PGlite> {
  try {
    const dump = new Blob([await readFile(CACHE)]);
    const db = dataDir === undefined ? await PGlite.create({ loadDataDir: dump }) : await PGlite.create(dataDir, { loadDataDir: dump });
    await migrate(db);
    return db;
  } catch {
    // No dump yet (or an unreadable one): make the database, then leave a dump for the next test.
  }
  const fresh = await PGlite.create();
  await migrate(fresh);
  const dump = await fresh.dumpDataDir('gzip');
  const partial = `${CACHE}.${process.pid}.partial`;
  await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
  // rename is atomic: a concurrent reader sees the old state or the whole file, never half of it.
  await rename(partial, CACHE);
  if (dataDir === undefined) return fresh;
  await fresh.close();
  const db = await PGlite.create(dataDir, { loadDataDir: dump });
  await migrate(db);
  return db;
}

/**
 * A migrated PGlite database for the `describe` block (or file) that calls this: made in its
 * beforeAll, closed in its afterAll.
 *
 * @example
 * const lite = useMigratedPGlite();
 * it('...', async () => { await lite.db.query('select 1'); });
 */
export function useMigratedPGlite(): { readonly db: PGlite } {
  let db: PGlite | undefined;
  beforeAll(async () => {
    db = await createMigratedPGlite();
  }, 30_000);
  afterAll(async () => {
    await db?.close();
  });
  return {
    get db() {
      if (db === undefined) throw new Error('useMigratedPGlite: the database is made in beforeAll');
      return db;
    },
  };
}
