import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// docs/production.md shows a package user how to migrate once per deploy without the
// repository's scripts: a `node -e` line over the exported `migrate` and `pg`. This runs that very
// line, as the doc prints it, from the repository root, where `tessera-http/postgres` resolves to
// dist/ through the package's own exports (npm test builds it first), as it would in an app.
const root = join(import.meta.dirname, '..', '..');
const exec = promisify(execFile);
const databaseUrl = process.env.TEST_DATABASE_URL;

/** The shell command of the doc's code block that runs `migrate` through `node -e`, without its example DATABASE_URL. */
function documentedMigrateCommand(): string {
  const doc = readFileSync(join(root, 'docs', 'production.md'), 'utf8');
  const block = [...doc.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '').find((text) => text.includes('node --input-type=module -e'));
  if (block === undefined) throw new Error('docs/production.md has no `node --input-type=module -e` migration command');
  return block.replace(/^DATABASE_URL=\S+ /, '');
}

describe('the migration command docs/production.md gives package users', () => {
  it('imports only the package and pg, no file of the repository', () => {
    const command = documentedMigrateCommand();
    expect(command, 'migrate comes from the package').toContain("from 'tessera-http/postgres'");
    expect(command, 'no repository path').not.toMatch(/scripts\/|register-swc|\.\.\//);
  });

  it.skipIf(databaseUrl === undefined)('migrates the database in DATABASE_URL and prints the schema version (needs TEST_DATABASE_URL)', async () => {
    const { stdout } = await exec('sh', ['-c', documentedMigrateCommand()], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, timeout: 60_000 });
    expect(stdout.trim(), 'what the command prints').toMatch(/^schema version \d+$/);
  }, 60_000);
});
