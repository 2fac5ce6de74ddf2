import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// What `npm install tessera-http` installs by default (dependencies, optionalDependencies, and the
// peers not marked optional, each with its own closure), read from the repository's lockfile:
// none of it may run an install-time script (issue 37: swagger-ui-dist pulled @scarf/scarf's).
const root = join(import.meta.dirname, '..', '..');

interface LockedPackage {
  readonly version?: string;
  readonly hasInstallScript?: boolean;
  readonly dependencies?: Readonly<Record<string, string>>;
  readonly optionalDependencies?: Readonly<Record<string, string>>;
  readonly peerDependencies?: Readonly<Record<string, string>>;
  readonly peerDependenciesMeta?: Readonly<Record<string, { readonly optional?: boolean }>>;
}

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as { packages: Record<string, LockedPackage> };
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as LockedPackage;

/** The names a package makes npm install beside it: its dependencies, optional ones, and required peers. */
function installedWith(pkg: LockedPackage): string[] {
  const peers = Object.keys(pkg.peerDependencies ?? {}).filter((name) => pkg.peerDependenciesMeta?.[name]?.optional !== true);
  return [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {}), ...peers];
}

/** Where Node (and npm's layout) finds `name` from the package at `from`: the nearest node_modules up the tree. */
function locate(name: string, from: string): string | undefined {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const path = dir === '' ? `node_modules/${name}` : `${dir}/node_modules/${name}`;
    if (lock.packages[path] !== undefined) return path;
    if (dir === '') return undefined;
  }
}

/** The lockfile paths of everything a default install of the package pulls in. */
function defaultInstallClosure(): Set<string> {
  const seen = new Set<string>();
  const queue = installedWith(manifest).map((name) => ({ name, from: '' }));
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const path = locate(next.name, next.from);
    // A foreign-platform optional package (@node-rs/argon2-android-arm64, ...) is in the lockfile; an absent name is not.
    if (path === undefined || seen.has(path)) continue;
    seen.add(path);
    for (const name of installedWith(lock.packages[path] as LockedPackage)) queue.push({ name, from: path });
  }
  return seen;
}

describe('a default install of the package', () => {
  const closure = defaultInstallClosure();

  it('is read from the lockfile (the closure holds the runtime dependencies)', () => {
    expect([...closure], 'zod, jose and the required peer @opentelemetry/api are in the closure').toEqual(expect.arrayContaining(['node_modules/zod', 'node_modules/jose', 'node_modules/@opentelemetry/api']));
  });

  it('runs no install-time script', () => {
    const withScripts = [...closure].filter((path) => lock.packages[path]?.hasInstallScript === true);
    expect(withScripts, 'packages with install scripts pulled by a default install').toEqual([]);
  });

  it('does not pull swagger-ui-dist (an optional peer: the API reference page asks for it) nor @scarf/scarf', () => {
    expect([...closure].filter((path) => /node_modules\/(swagger-ui-dist|@scarf\/scarf)$/.test(path))).toEqual([]);
    expect(manifest.peerDependenciesMeta?.['swagger-ui-dist']?.optional, 'swagger-ui-dist is an optional peer').toBe(true);
  });
});
