import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../../postgres/support/tenants-process.js';

const run = promisify(execFile);
const scripts = join(REPO_ROOT, 'scripts', 'redis');

/** A Redis server this test owns (scripts/redis/), so stopping or stalling it disturbs no other test. */
export interface OwnRedis {
  readonly url: string;
  readonly dir: string;
  /** Stops the server, keeping its directory and port. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** SIGSTOPs the server: its sockets stay open and what is sent to it waits unread. */
  stall(): Promise<void>;
  /** SIGCONTs what {@link OwnRedis.stall} stopped. */
  resume(): void;
  /** Stops it and deletes its directory. */
  destroy(): Promise<void>;
}

/**
 * Starts a private Redis with scripts/redis/start-test-server.sh.
 *
 * @example
 * const redis = await startOwnRedis(); await redis.stall(); redis.resume(); await redis.destroy();
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const { stdout } = await run(join(scripts, 'start-test-server.sh'));
  const url = /TEST_REDIS_URL=(\S+)/.exec(stdout)?.[1];
  const dir = /TESSERA_REDIS_DIR=(\S+)/.exec(stdout)?.[1];
  if (url === undefined || dir === undefined) throw new Error(`start-test-server.sh printed no URL:\n${stdout}`);
  let stalled: number | undefined;
  return {
    url,
    dir,
    stop: async () => {
      await run(join(scripts, 'stop-test-server.sh'), [dir, '--keep']);
    },
    start: async () => {
      await run(join(scripts, 'start-test-server.sh'), [dir]);
    },
    stall: async () => {
      // The pid file this server wrote (--pidfile in the script), never a process found by name.
      const pid = Number((await readFile(join(dir, 'redis.pid'), 'utf8')).trim());
      if (!Number.isInteger(pid) || pid <= 1) throw new Error(`no Redis pid in ${dir}/redis.pid`);
      process.kill(pid, 'SIGSTOP');
      stalled = pid;
    },
    resume: () => {
      if (stalled === undefined) return;
      process.kill(stalled, 'SIGCONT');
      stalled = undefined;
    },
    destroy: async () => {
      if (stalled !== undefined) process.kill(stalled, 'SIGCONT');
      await run(join(scripts, 'stop-test-server.sh'), [dir]);
    },
  };
}
