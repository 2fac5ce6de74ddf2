import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const cacheDir = join(root, '.cache', 'packed');

/** How long `npm pack` (and the build its prepack runs) may take: a test's bound, or none (0) for a build a person waits for. */
export interface PackOptions {
  readonly timeoutMs?: number;
}

/** The package as the registry would serve it: the tarball `npm pack` made and what its build printed. */
export interface PackedTarball {
  /** Absolute path of the .tgz. */
  readonly tarball: string;
  /** stdout and stderr of `npm pack` (its `prepack` runs tsup). */
  readonly buildOutput: string;
}

/** The files a fresh clone has (tracked and unignored), in a stable order. */
async function workTreeFiles(): Promise<string[]> {
  const { stdout } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
  return stdout.split('\0').filter((name) => name !== '' && existsSync(join(root, name))).sort();
}

/** A digest of every file's name and content: the same work tree packs to the same tarball. */
function digestOf(files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(readFileSync(join(root, file))).update('\0');
  return hash.digest('hex').slice(0, 24);
}

/**
 * Packs the work tree once per content: copies it as a fresh clone has it (no dist/, so npm's
 * `prepack` must build and the repository's own dist/ is never touched), runs `npm pack`, and
 * keeps the tarball and the build's output in .cache/packed/<digest>/. Every later caller with
 * the same files (the package-hygiene test, and CI's Node-specific runs on the other Node
 * versions) reuses that tarball instead of building and packing again: a tarball does not depend
 * on the Node version that installs it, and the registry serves one tarball to every version.
 *
 * @example
 * const { tarball, buildOutput } = await packedTarball();
 */
export async function packedTarball({ timeoutMs = 360_000 }: PackOptions = {}): Promise<PackedTarball> {
  const files = await workTreeFiles();
  const done = join(cacheDir, digestOf(files));
  if (!existsSync(join(done, 'build-output.txt'))) await oneAtATime(() => (existsSync(join(done, 'build-output.txt')) ? Promise.resolve() : pack(files, done, timeoutMs)));
  const tarball = readdirSync(done).find((name) => name.endsWith('.tgz'));
  if (!tarball) throw new Error(`no tarball in ${done}`);
  return { tarball: join(done, tarball), buildOutput: readFileSync(join(done, 'build-output.txt'), 'utf8') };
}

/**
 * Runs `work` while holding .cache/packed/lock (a directory: mkdir is atomic), so that two test
 * files asking at once on two workers build once; a lock older than ten minutes is a crashed
 * run's and is taken over.
 */
async function oneAtATime(work: () => Promise<void>): Promise<void> {
  const lock = join(cacheDir, 'lock');
  mkdirSync(cacheDir, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 600_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

async function pack(files: readonly string[], done: string, timeoutMs: number): Promise<void> {
  const work = join(cacheDir, `tmp-${randomBytes(6).toString('hex')}`);
  const clone = join(work, 'clone');
  const out = join(work, 'out');
  mkdirSync(out, { recursive: true });
  try {
    for (const file of files) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(root, file), join(clone, file));
    }
    if (existsSync(join(clone, 'dist'))) throw new Error('the clone of the work tree should have no dist/ (is dist/ tracked?)');
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
    // The build behind it (tsup with declarations) takes ~25 s on a quiet 2-core machine; a test's
    // bound leaves room for a loaded one, and a failure says what npm printed.
    const packed = await exec('npm', ['pack', '--pack-destination', out, '--no-audit', '--no-fund', '--loglevel=error'], { cwd: clone, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }).catch((error: { message: string; signal?: string | null; stdout?: string; stderr?: string }) => {
      throw new Error(`npm pack failed${error.signal ? ` (${error.signal}: over ${timeoutMs / 1000} s?)` : ''}:\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    writeFileSync(join(out, 'build-output.txt'), `${packed.stdout}\n${packed.stderr}`);
    // One tarball is kept: older contents' and crashed runs' leftovers go (the lock is held).
    for (const stale of readdirSync(cacheDir).filter((name) => name !== 'lock' && join(cacheDir, name) !== work)) rmSync(join(cacheDir, stale), { recursive: true, force: true });
    renameSync(out, done);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
