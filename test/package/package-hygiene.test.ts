import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { beforeAll, describe, expect, it } from 'vitest';
import { nodeSpecificRun } from '../support/node-specific-run.js';
import { packedTarball } from '../support/packed-tarball.js';

const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
const entryPoints = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json');
const specifierOf = (subpath: string) => (subpath === '.' ? 'tessera-http' : `tessera-http${subpath.slice(1)}`);

/** Runs a command with a time limit; resolves with its exit code and output instead of rejecting. */
function run(command: string, args: readonly string[], timeoutMs: number): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, [...args], { cwd: root, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

interface AttwProblem {
  readonly kind: string;
  readonly entrypoint?: string;
  readonly resolutionKind?: string;
  readonly fileName?: string;
}

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: `npm test` builds it first (npm run build).');
});

describe('the built package', () => {
  it.skipIf(nodeSpecificRun)('passes publint in strict mode (warnings are errors), on the files npm would publish', async () => {
    const { messages, pkg } = await publint({ pkgDir: root, strict: true, pack: 'npm', level: 'warning' });
    const problems = messages.map((message) => `${message.type}: ${formatMessage(message, pkg) ?? message.code}`);
    expect(problems).toEqual([]);
  }, 60_000);

  // Every resolution attw knows: node10 (`module: commonjs`, which reads no "exports" and finds the
  // subpaths through package.json "typesVersions"), node16/nodenext from ESM and CJS, and bundler.
  it.skipIf(nodeSpecificRun)('passes @arethetypeswrong/cli (every resolution, node10 included) for every entry point, ESM and CJS', async () => {
    // attw resolves every entry's types both ways (~4 s each on this machine): 14 entries need the room.
    // The tarball the packed-package test installs (packed once per content): `attw --pack .`
    // would run npm's prepack, a second build, into the repository's own dist/. When this file
    // asks first, it packs: the test's bound leaves room for that.
    const { tarball } = await packedTarball();
    const result = await run(join(root, 'node_modules', '.bin', 'attw'), [tarball, '--format', 'json'], 150_000);
    const report = JSON.parse(result.stdout) as { analysis: { entrypoints: Record<string, unknown>; problems: AttwProblem[] } };
    expect(Object.keys(report.analysis.entrypoints).filter((subpath) => subpath !== './package.json')).toEqual(entryPoints);
    expect(report.analysis.problems).toEqual([]);
    expect(result.code, result.stderr).toBe(0);
  }, 600_000);
  it('loads every entry point with require() on Node', async () => {
    const script = `for (const s of ${JSON.stringify(entryPoints.map(specifierOf))}) require(s);`;
    const result = await run(process.execPath, ['-e', script], 30_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 30_000);

  it('loads every entry point with import on Node', async () => {
    const script = `for (const s of ${JSON.stringify(entryPoints.map(specifierOf))}) await import(s);`;
    const result = await run(process.execPath, ['--input-type=module', '-e', script], 30_000);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  }, 30_000);
});
