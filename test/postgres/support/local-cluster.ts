import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { REPO_ROOT } from './tenants-process.js';

const run = promisify(execFile);

/** A PostgreSQL cluster this test owns, so it may stop and start it at will. */
export interface LocalCluster {
  readonly url: string;
  readonly dir: string;
  /** `pg_ctl stop -m fast`, keeping the data. */
  stop(): Promise<void>;
  /** Starts it again on the same port. */
  start(): Promise<void>;
  /** Stops it and deletes its directory. */
  destroy(): Promise<void>;
}

/**
 * Why a private cluster cannot be started here, or undefined when it can: the server binaries
 * (Debian's postgresql package) must be installed.
 *
 * @example
 * const reason = whyNoLocalCluster(); if (reason) console.warn(reason);
 */
export function whyNoLocalCluster(): string | undefined {
  if (process.env.PG_BINDIR && existsSync(`${process.env.PG_BINDIR}/initdb`)) return undefined;
  const versions = existsSync('/usr/lib/postgresql') ? readdirSync('/usr/lib/postgresql') : [];
  if (versions.some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`))) return undefined;
  return 'no PostgreSQL server binaries (apt-get install -y postgresql, or set PG_BINDIR)';
}

/**
 * Starts a throwaway cluster with scripts/postgres/start-test-server.sh.
 *
 * @example
 * const cluster = await startLocalCluster(); await cluster.stop(); await cluster.start(); await cluster.destroy();
 */
export async function startLocalCluster(): Promise<LocalCluster> {
  const started = await run('bash', ['scripts/postgres/start-test-server.sh'], { cwd: REPO_ROOT });
  const url = /TEST_DATABASE_URL=(\S+)/.exec(started.stdout)?.[1];
  const dir = /TESSERA_PG_DIR=(\S+)/.exec(started.stdout)?.[1];
  if (url === undefined || dir === undefined) throw new Error(`start-test-server.sh printed no URL:\n${started.stdout}${started.stderr}`);
  return {
    url,
    dir,
    stop: async () => {
      await run('bash', ['scripts/postgres/stop-test-server.sh', dir, '--keep'], { cwd: REPO_ROOT });
    },
    start: async () => {
      await run('bash', ['scripts/postgres/start-test-server.sh', dir], { cwd: REPO_ROOT });
    },
    destroy: async () => {
      await run('bash', ['scripts/postgres/stop-test-server.sh', dir], { cwd: REPO_ROOT });
    },
  };
}
