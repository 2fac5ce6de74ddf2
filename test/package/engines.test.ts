import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// The Node versions the project says it runs on are the ones it tests on: `engines` in
// package.json, the versions CI runs (scripts/node/tested-versions.json) and the README agree, and
// nothing the lockfile installs refuses the Node this test runs on (npm's EBADENGINE). CI runs
// this file on every tested version (`npm test` on the newest, `npm run test:node` on the others).
const root = join(import.meta.dirname, '..', '..');
const semver = createRequire(import.meta.url)('semver') as {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
  compare(a: string, b: string): number;
};

interface LockedPackage {
  readonly version?: string;
  readonly engines?: Readonly<Record<string, string>> | readonly string[];
}

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  devDependencies: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const jobsDoc = readFileSync(join(root, 'docs', 'jobs.md'), 'utf8');

/**
 * An optional peer the package never installs itself may need a newer Node than `engines` (pg-boss
 * 12, behind the PostgreSQL job engine, needs 22.12), as long as the docs say so where the feature
 * is described ("Node <major.minor> or later" in docs/jobs.md): the repository installs it to test
 * that feature, on the Node versions that have it.
 */
function isDocumentedOptionalPeer(path: string, range: string): boolean {
  const name = path.replace(/^node_modules\//, '');
  const floor = semver.minVersion(range)?.version.split('.').slice(0, 2).join('.');
  return manifest.peerDependenciesMeta?.[name]?.optional === true && floor !== undefined && jobsDoc.includes(`Node ${floor} or later`);
}
const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const tested = JSON.parse(readFileSync(join(root, 'scripts', 'node', 'tested-versions.json'), 'utf8')) as { full: string; nodeSpecific: readonly string[] };
const readme = readFileSync(join(root, 'README.md'), 'utf8');
const deployDoc = readFileSync(join(root, 'docs', 'deploy.md'), 'utf8');
const testedVersions = [tested.full, ...tested.nodeSpecific];

/** The Node range a locked package declares, if any (old lockfiles may hold an array of strings). */
function nodeRange(pkg: LockedPackage): string | undefined {
  const engines = pkg.engines;
  return engines === undefined || Array.isArray(engines) ? undefined : (engines as Readonly<Record<string, string>>).node;
}

/** `text` names every Node version CI tests and the Bun and Deno versions the conformance run pins. */
function expectNamesTestedVersions(text: string, where: string): void {
  for (const version of testedVersions) expect(text, `${where} does not name Node ${version}`).toContain(version);
  for (const runtime of ['bun', 'deno']) {
    const pinned = manifest.devDependencies[runtime] ?? '';
    expect(pinned, `${runtime} is pinned to one version in devDependencies`).toMatch(/^\d+\.\d+\.\d+$/);
    expect(text, `${where} does not name the ${runtime} version the conformance run uses`).toContain(pinned);
  }
}

describe('the Node versions: engines, CI and README agree', () => {
  it(`every package the lockfile installs supports Node ${process.versions.node} (no EBADENGINE)`, () => {
    const refusing = Object.entries(lock.packages)
      .filter(([path]) => path !== '')
      .flatMap(([path, pkg]) => {
        const range = nodeRange(pkg);
        return range !== undefined && !semver.satisfies(process.versions.node, range) && !isDocumentedOptionalPeer(path, range) ? [`${path}@${pkg.version ?? '?'} wants node ${range}`] : [];
      });
    expect(refusing, `packages whose engines exclude Node ${process.versions.node}`).toEqual([]);
  });

  it(`Node ${process.versions.node}, running this test, is one that engines allows`, () => {
    expect(semver.satisfies(process.versions.node, manifest.engines.node), `engines.node is ${manifest.engines.node}`).toBe(true);
  });

  it('every tested version is one that engines allows, and the lowest tested is the floor engines names', () => {
    for (const version of testedVersions) expect(semver.satisfies(version, manifest.engines.node), `tested Node ${version} is outside engines ${manifest.engines.node}`).toBe(true);
    const lowest = [...testedVersions].sort(semver.compare)[0];
    expect(lowest, 'the lowest tested version').toBe(semver.minVersion(manifest.engines.node)?.version);
  });

  it('the README names every tested Node version and the pinned Bun and Deno versions', () => {
    expectNamesTestedVersions(readme, 'README');
  });

  it("docs/deploy.md's versions line names every tested Node version and the pinned Bun and Deno versions", () => {
    const line = deployDoc.split('\n\n').find((paragraph) => paragraph.startsWith('Tested with')) ?? '';
    expect(line, 'docs/deploy.md has a paragraph starting "Tested with"').not.toBe('');
    expectNamesTestedVersions(line, `docs/deploy.md's "Tested with"`);
  });
});
