import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
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
  /**
   * SIGSTOPs the postmaster and every process under it (backends, checkpointer, ...): a server
   * that hangs, unlike a stopped one, keeps its sockets open, and what is sent meanwhile waits
   * unread in them. Linux only (see {@link whyNoClusterHang}).
   */
  hang(): Promise<void>;
  /** SIGCONTs what {@link LocalCluster.hang} stopped. */
  resume(): void;
}

/**
 * Why a cluster's processes cannot be hung here, or undefined when they can: finding a
 * postmaster's children reads /proc.
 *
 * @example
 * const reason = whyNoClusterHang(); if (reason) console.warn(reason);
 */
export function whyNoClusterHang(): string | undefined {
  return process.platform === 'linux' ? undefined : 'hanging a cluster reads /proc (Linux only)';
}

/** Reads a file, or undefined when it is gone (a process that exited). */
function readIfThere(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/**
 * The pids under `root`, children before their parents, from each process's /proc stat. Read
 * synchronously on purpose: the postmaster is already stopped while this runs, and async reads
 * queue behind a busy test's thread pool (seconds, measured) while the backends still serve.
 */
function descendants(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so parse after the last ')'.
    const stat = readIfThere(`/proc/${entry}/stat`);
    if (stat === undefined) continue;
    const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      visit(child);
      found.push(child);
    }
  };
  visit(root);
  return found;
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
  let hung: number[] = [];
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
    hang: async () => {
      // This cluster's postmaster only (its own data directory's pid file), stopped first so it
      // forks nothing while its children are listed.
      const postmaster = Number(readFileSync(`${dir}/data/postmaster.pid`, 'utf8').split('\n')[0]);
      if (!Number.isInteger(postmaster) || postmaster <= 1) throw new Error(`no postmaster pid in ${dir}/data/postmaster.pid`);
      process.kill(postmaster, 'SIGSTOP');
      hung = [postmaster];
      for (const pid of descendants(postmaster)) {
        try {
          process.kill(pid, 'SIGSTOP');
          hung.unshift(pid);
        } catch {
          // Exited between the listing and the signal.
        }
      }
    },
    resume: () => {
      for (const pid of hung) {
        try {
          process.kill(pid, 'SIGCONT');
        } catch {
          // Gone already.
        }
      }
      hung = [];
    },
  };
}
