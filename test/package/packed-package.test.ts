import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// What a new user does: `npm pack` the package (as the registry would serve it), install the
// tarball with zod into an empty app, import every entry point from ESM and CJS, compile a
// TypeScript app with `tsc --strict` (nodenext), and run it. The pack starts from a copy of the
// work tree as a fresh clone has it (tracked and unignored files, no dist/): npm's `prepack`
// must build, and the repository's own dist/, which other tests read, is never touched.
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'packed-app');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
const exec = promisify(execFile);
const npm = (args: string[], cwd: string) => exec('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });

describe('the packed package, installed into a fresh app', () => {
  let dir: string;
  let app: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-packed-'));
    app = join(dir, 'app');
    const clone = join(dir, 'clone');
    const { stdout: files } = await exec('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, maxBuffer: 16 * 1024 * 1024 });
    for (const file of files.split('\0').filter((name) => name !== '' && existsSync(join(root, name)))) {
      mkdirSync(dirname(join(clone, file)), { recursive: true });
      cpSync(join(root, file), join(clone, file));
    }
    if (existsSync(join(clone, 'dist'))) throw new Error('the clone of the work tree should have no dist/ (is dist/ tracked?)');
    symlinkSync(join(root, 'node_modules'), join(clone, 'node_modules'), 'dir');
    await npm(['pack', '--pack-destination', dir], clone);
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack produced no tarball in ${dir}`);
    cpSync(fixtures, app, { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'packed-app', private: true, type: 'module' }));
    // The same zod/@types/node/typescript the repository uses, from npm's cache when it has them.
    await npm(
      ['install', '--prefer-offline', join(dir, tarball), `zod@${manifest.dependencies.zod}`, `@types/node@${manifest.devDependencies['@types/node']}`, `typescript@${manifest.devDependencies.typescript}`],
      app,
    );
  }, 300_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs under its registry name', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', manifest.name, 'package.json'), 'utf8')) as { name: string };
    expect(installed.name).toBe('tessera-http');
  });

  it('imports every subpath export from ESM and from CJS, with the same names', async () => {
    const { stdout } = await exec(process.execPath, ['import-all.mjs'], { cwd: app, timeout: 60_000 });
    const loaded = JSON.parse(stdout) as Record<string, { esm: string[]; cjs: string[] }>;
    const specifiers = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'tessera-http' : `tessera-http/${subpath.slice(2)}`));
    expect(Object.keys(loaded).sort()).toEqual(specifiers.sort());
    for (const specifier of specifiers) {
      const names = loaded[specifier] as { esm: string[]; cjs: string[] };
      expect(names.esm.length, `${specifier} exports something`).toBeGreaterThan(0);
      expect(names.cjs, `${specifier}: CJS exports the same names as ESM`).toEqual(names.esm);
    }
    expect(loaded['tessera-http']?.esm).toContain('createApp');
    expect(loaded['tessera-http/facade']?.esm).toContain('Controller');
    expect(loaded['tessera-http/auth']?.esm).toContain('defineAuthModule');
    expect(loaded['tessera-http/openapi']?.esm).toContain('generateOpenApiDocument');
    expect(loaded['tessera-http/node']?.esm).toContain('serve');
  });

  // The public surface is planned: a name added to or dropped from an entry fails here until
  // test/package/expected-exports.json says so (UPDATE_EXPECTED_EXPORTS=1 rewrites it, for review in the diff).
  it('exports from each entry exactly the names planned in expected-exports.json', async () => {
    const { stdout } = await exec(process.execPath, ['import-all.mjs'], { cwd: app, timeout: 60_000 });
    const loaded = JSON.parse(stdout) as Record<string, { esm: string[] }>;
    const actual = Object.fromEntries(Object.entries(loaded).sort(([a], [b]) => a.localeCompare(b)).map(([entry, names]) => [entry, names.esm]));
    const expectedFile = join(import.meta.dirname, 'expected-exports.json');
    if (process.env.UPDATE_EXPECTED_EXPORTS === '1') writeFileSync(expectedFile, `${JSON.stringify(actual, null, 2)}\n`);
    const expected = JSON.parse(readFileSync(expectedFile, 'utf8')) as Record<string, string[]>;
    for (const entry of new Set([...Object.keys(expected), ...Object.keys(actual)])) {
      const planned = new Set(expected[entry] ?? []);
      const shipped = new Set(actual[entry] ?? []);
      expect([...shipped].filter((name) => !planned.has(name)), `${entry}: exported but not planned (add to expected-exports.json if intended)`).toEqual([]);
      expect([...planned].filter((name) => !shipped.has(name)), `${entry}: planned but no longer exported`).toEqual([]);
    }
  });

  it('type-checks and compiles an app using the builder API, the facade, auth and OpenAPI with tsc --strict (nodenext)', async () => {
    const tsc = join(app, 'node_modules', 'typescript', 'bin', 'tsc');
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json'], { cwd: app, timeout: 120_000 }).catch((error: { stdout: string }) => error);
    expect(result.stdout, 'tsc reports no errors').toBe('');
  });

  it('serves requests from the compiled app through app.listen with no server option: builder and class routes, auth refusal, OpenAPI paths', async () => {
    const { stdout } = await exec(process.execPath, [join('dist', 'app.js')], { cwd: app, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      created: { status: 201, body: { id: '1', text: 'hi', pinned: false } },
      hello: { status: 200, body: { message: 'Hello, packed!' } },
      admin: 401,
      paths: ['/hello/admin/{name}', '/hello/echo', '/hello/{name}', '/notes', '/notes/{id}'],
    });
  });
});
