import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify, stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nodeSpecificRun } from '../support/node-specific-run.js';
import { packedTarball } from '../support/packed-tarball.js';

// What a new user does: `npm pack` the package (as the registry would serve it), install the
// tarball with zod into an empty app, import every entry point from ESM and CJS, compile a
// TypeScript app with `tsc --strict` (nodenext), and run it. The pack (test/support/packed-tarball.ts)
// starts from a copy of the work tree as a fresh clone has it (no dist/): npm's `prepack` must
// build, and the repository's own dist/, which other tests read, is never touched; one tarball
// per content serves this file, the package-hygiene test and CI's runs on the other Node versions.
// Then what other projects do with it: every entry point type-checked under each module
// resolution TypeScript has, with the TypeScript the repository uses and with the lowest one it
// supports (LOWEST_TYPESCRIPT, the floor docs/toolchain.md states), from a project compiled with
// `declaration: true` that re-exports every value of every entry and exports the values the API
// hands out (TS2742/TS4023 when a type cannot be named); the testing app listening from CommonJS
// and ESM; a quiet build.
const root = join(import.meta.dirname, '..', '..');
const fixtures = join(import.meta.dirname, 'packed-app');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
  devDependencies: Record<string, string>;
  dependencies: Record<string, string>;
};
/**
 * The lowest TypeScript the package supports (README, docs/toolchain.md). Installed into the test's
 * app only: as a devDependency alias (npm:typescript@...) its `tsc` bin replaced the repository's.
 */
const LOWEST_TYPESCRIPT = '5.4.5';
const expectedExports = JSON.parse(readFileSync(join(import.meta.dirname, 'expected-exports.json'), 'utf8')) as Record<string, string[]>;

/**
 * One small project per module resolution: `type` is its package.json type (the format of its
 * .ts files under node16/nodenext), `options` its compiler options. node10 with `module: commonjs`
 * is NestJS's default (and needs esModuleInterop, as zod's own declarations do there).
 */
const RESOLUTIONS: Record<string, { type: 'module' | 'commonjs'; options: Record<string, unknown> }> = {
  'node10-commonjs': { type: 'commonjs', options: { module: 'commonjs', moduleResolution: 'node', esModuleInterop: true } },
  'node16-cjs': { type: 'commonjs', options: { module: 'node16', moduleResolution: 'node16' } },
  'node16-esm': { type: 'module', options: { module: 'node16', moduleResolution: 'node16' } },
  'nodenext-cjs': { type: 'commonjs', options: { module: 'nodenext', moduleResolution: 'nodenext' } },
  'nodenext-esm': { type: 'module', options: { module: 'nodenext', moduleResolution: 'nodenext' } },
  bundler: { type: 'module', options: { module: 'esnext', moduleResolution: 'bundler' } },
};

/** Imports a value from every entry point (the first name expected-exports.json plans for it) and uses it. */
function importEveryEntry(): string {
  const entries = Object.entries(expectedExports);
  const imports = entries.map(([specifier, names], i) => `import { ${names[0] ?? 'missing'} as value${i} } from '${specifier}';`);
  return `${imports.join('\n')}\nexport const used: readonly unknown[] = [${entries.map((_, i) => `value${i}`).join(', ')}];\n`;
}

/**
 * One file per entry point that imports that entry alone and re-exports every value it ships (the
 * names expected-exports.json plans, which the test below holds equal to what ships), each under
 * an inferred type: what a consumer compiled with `declaration: true` writes when it re-exports
 * `get` or a store class. tsc must name every such type from an entry point (TS4023 when the type
 * is not exported at all, TS2742 when it lives only in an internal chunk of dist/).
 */
function reexportEveryValue(): Map<string, string> {
  const files = new Map<string, string>();
  Object.entries(expectedExports).forEach(([specifier, names], i) => {
    const lines = [`// Every value of ${specifier}, re-exported with its inferred type.`, `import * as entry from '${specifier}';`, ...names.map((name) => `export const ${name}_ = entry.${name};`)];
    files.set(`every-value-${i}.ts`, `${lines.join('\n')}\n`);
  });
  return files;
}

/** Writes the project of one resolution into `dir`: every entry imported, every value re-exported, the API's values exported, declarations emitted. */
function writeResolutionProject(dir: string, fixtures: string, resolution: { type: string; options: Record<string, unknown> }): void {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: resolution.type }));
  writeFileSync(join(dir, 'every-entry.ts'), importEveryEntry());
  cpSync(join(fixtures, 'exported-values.ts'), join(dir, 'exported-values.ts'));
  const everyValue = reexportEveryValue();
  for (const [file, text] of everyValue) writeFileSync(join(dir, file), text);
  // composite: the projects are built by one `tsc -b` (see buildResolutions); it adds no check and drops none.
  const compilerOptions = { target: 'es2022', strict: true, skipLibCheck: false, types: ['node'], declaration: true, emitDeclarationOnly: true, composite: true, outDir: 'out', ...resolution.options };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['every-entry.ts', 'exported-values.ts', ...everyValue.keys()] }, null, 2));
}

/**
 * The solution that references every resolution's project, so that one `tsc -b` builds them all:
 * one process and one parse of the shared declarations (dist/, zod, @types/node) instead of six,
 * each project still a program of its own with its own options (~40 s of CPU instead of ~65 s
 * for the six; measured in /work/notes/45-helper-45.md).
 */
function writeResolutionsSolution(dir: string): void {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ files: [], references: Object.keys(RESOLUTIONS).map((name) => ({ path: name })) }, null, 2));
}

/** A status line of `tsc -b --verbose` (not a diagnostic): "11:16:03 AM - Building project '…'…", the project list. */
const BUILD_STATUS = /^(\S+( [AP]M)? - (Projects in this build:|Project '.*' is (out of date|up to date|being forcibly rebuilt).*|Building project '.*'\.\.\.)|    \* .*tsconfig\.json)\s*$/;

/**
 * What `tsc -b --verbose` printed for each resolution's project: its output is cut at each
 * "Building project" line, status lines dropped. Anything printed outside a project (before the
 * first one) is kept under '' so that a test sees it rather than losing it.
 */
function outputPerProject(stdout: string): Map<string, string> {
  const sections = new Map<string, string[]>([['', []]]);
  let current = '';
  for (const line of stdout.split('\n')) {
    const building = /Building project '(?:.*[\\/])?resolutions[\\/]([^\\/]+)[\\/]tsconfig\.json'/.exec(line);
    if (building?.[1] !== undefined) {
      current = building[1];
      sections.set(current, []);
    } else if (line.trim() !== '' && !BUILD_STATUS.test(line)) sections.get(current)?.push(line);
  }
  return new Map([...sections].map(([name, lines]) => [name, lines.join('\n')]));
}

/** tsc's error lines that say a public value's type cannot be named by a consumer (TS2742 and its TypeScript 5.5 form TS2883: only through an internal path; TS4023/TS4025: not exported). */
function unnameableTypes(tscOutput: string): string[] {
  return tscOutput.split('\n').filter((line) => /error TS(2742|2883|4023|4025)\b/.test(line));
}

/** Lines a build prints that are not tsup's own progress lines (CLI/ESM/CJS/DTS) nor npm's script banner: warnings. */
// The CI's environment may ask for colour (FORCE_COLOR), and tsup then wraps its "DTS"/"CJS"
// prefixes in escape codes: lines are compared without them.
function warningLines(output: string): string[] {
  return stripVTControlCharacters(output).split('\n').filter((line) => line.trim() !== '' && !/^(CLI|ESM|CJS|DTS) /.test(line) && !/^> /.test(line) && !/\.tgz$/.test(line.trim()));
}
const exec = promisify(execFile);
const npm = (args: string[], cwd: string, loglevel: 'error' | 'warn' = 'error') => exec('npm', [...args, '--no-audit', '--no-fund', `--loglevel=${loglevel}`], { cwd, timeout: 240_000, maxBuffer: 16 * 1024 * 1024 });

describe('the packed package, installed into a fresh app', () => {
  let dir: string;
  let app: string;
  let buildOutput = '';
  /** npm's warnings while installing the package into the app (EBADENGINE among them). */
  let installWarnings = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-packed-'));
    app = join(dir, 'app');
    const packed = await packedTarball();
    buildOutput = packed.buildOutput;
    cpSync(fixtures, app, { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'packed-app', private: true, type: 'module' }));
    // The same zod/@types/node/typescript (and lowest TypeScript) the repository uses, from npm's
    // cache when it has them; ioredis, the optional peer whose types tessera-http/redis names.
    const installed = await npm(
      [
        'install',
        '--prefer-offline',
        packed.tarball,
        `zod@${manifest.dependencies.zod}`,
        `@types/node@${manifest.devDependencies['@types/node']}`,
        `typescript@${manifest.devDependencies.typescript}`,
        `typescript-lowest@npm:typescript@${LOWEST_TYPESCRIPT}`,
        `ioredis@${manifest.devDependencies.ioredis}`,
      ],
      app,
      'warn',
    );
    installWarnings = stripVTControlCharacters(`${installed.stdout}\n${installed.stderr}`);
    for (const [name, resolution] of Object.entries(RESOLUTIONS)) writeResolutionProject(join(app, 'resolutions', name), fixtures, resolution);
    writeResolutionsSolution(join(app, 'resolutions'));
  }, 600_000);

  /** One `tsc -b` per TypeScript over every resolution's project (run once, by the first test that asks): what it printed per project. */
  const builds = new Map<string, Promise<Map<string, string>>>();
  const buildResolutions = (typescript: string): Promise<Map<string, string>> => {
    let build = builds.get(typescript);
    if (build === undefined) {
      const tsc = join(app, 'node_modules', typescript, 'bin', 'tsc');
      // --force: the other TypeScript's build left its tsbuildinfo in the same projects (TypeScript 5.4
      // takes 5.9's as up to date and would check nothing); every build here checks every project.
      build = exec(process.execPath, [tsc, '-b', 'resolutions', '--force', '--verbose', '--pretty', 'false'], { cwd: app, timeout: 600_000, maxBuffer: 16 * 1024 * 1024 })
        .catch((error: { stdout: string }) => error)
        .then((result) => outputPerProject(result.stdout));
      builds.set(typescript, build);
    }
    return build;
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }), 60_000);

  it(`installs on Node ${process.versions.node} without an engine warning (EBADENGINE) for itself or anything it pulls in`, () => {
    const lines = installWarnings.split('\n').filter((line) => /EBADENGINE|Unsupported engine/.test(line));
    expect(lines, `npm warned that a package does not support Node ${process.versions.node}`).toEqual([]);
  });

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
  }, 120_000);

  it('serves requests from the compiled app through app.listen with no server option: builder and class routes, auth refusal, OpenAPI paths', async () => {
    const { stdout } = await exec(process.execPath, [join('dist', 'app.js')], { cwd: app, timeout: 60_000 });
    expect(JSON.parse(stdout)).toEqual({
      created: { status: 201, body: { id: '1', text: 'hi', pinned: false } },
      hello: { status: 200, body: { message: 'Hello, packed!' } },
      admin: 401,
      paths: ['/hello/admin/{name}', '/hello/echo', '/hello/{name}', '/notes', '/notes/{id}'],
    });
  });

  it('builds with no warning (prepack runs tsup; Rollup\u2019s circular-chunk lines and any other are failures)', () => {
    expect(buildOutput, 'the pack ran the build').toContain('Build success');
    expect(warningLines(buildOutput)).toEqual([]);
  });

  it('installs without swagger-ui-dist and without any package that has an install script', () => {
    const installed = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8')) as { packages: Record<string, { hasInstallScript?: boolean }> };
    const paths = Object.keys(installed.packages);
    expect(paths, 'the package is in the app').toContain(`node_modules/${manifest.name}`);
    expect(paths.filter((path) => installed.packages[path]?.hasInstallScript === true)).toEqual([]);
    expect(paths.filter((path) => /node_modules\/(swagger-ui-dist|@scarf\/scarf)$/.test(path))).toEqual([]);
  });

  for (const typescript of ['typescript', 'typescript-lowest']) {
    for (const resolution of Object.keys(RESOLUTIONS)) {
      it.skipIf(nodeSpecificRun)(`${typescript} (${typescript === 'typescript' ? manifest.devDependencies.typescript : LOWEST_TYPESCRIPT}), ${resolution}: every entry point type-checks, and every value of every entry exports under declaration: true`, async () => {
        const printed = await buildResolutions(typescript);
        expect(printed.get(''), 'tsc -b printed nothing outside a project').toBe('');
        const output = printed.get(resolution);
        expect(output, `tsc -b built the ${resolution} project`).toBeDefined();
        expect(unnameableTypes(output ?? ''), 'public values whose type a consumer cannot name (export that type from the entry)').toEqual([]);
        expect(output, 'tsc reports no errors').toBe('');
        const out = join(app, 'resolutions', resolution, 'out');
        const declarations = readdirSync(out).filter((file) => file.endsWith('.d.ts')).map((file) => readFileSync(join(out, file), 'utf8')).join('\n');
        expect(declarations.match(/import\("[^"]*"\)/g)?.filter((specifier) => !/^import\("(tessera-http(\/[a-z/]+)?|http|zod)"\)$/.test(specifier)) ?? [], 'declarations name types from entry points only').toEqual([]);
      }, 600_000);
    }
  }

  it.skipIf(nodeSpecificRun)('compiles the app of the first tests with the lowest supported TypeScript too', async () => {
    const tsc = join(app, 'node_modules', 'typescript-lowest', 'bin', 'tsc');
    const result = await exec(process.execPath, [tsc, '-p', 'tsconfig.json', '--noEmit'], { cwd: app, timeout: 120_000 }).catch((error: { stdout: string }) => error);
    expect(result.stdout, 'tsc reports no errors').toBe('');
  }, 120_000);

  it('serveApiReference, without the optional peer swagger-ui-dist, refuses at mount time naming the package to install', async () => {
    const { stdout } = await exec(process.execPath, ['api-reference-missing.mjs'], { cwd: app, timeout: 60_000 });
    const outcome = JSON.parse(stdout) as { code?: string; message?: string };
    expect(outcome.code).toBe('API_REFERENCE_ASSETS_MISSING');
    expect(outcome.message).toContain('npm install swagger-ui-dist');
  });

  for (const file of ['testing-listen.cjs', 'testing-listen.mjs']) {
    it(`${file}: a testing app from the ${file.endsWith('.cjs') ? 'CommonJS' : 'ES module'} build listens with no server option and serves a request`, async () => {
      const { stdout } = await exec(process.execPath, [file], { cwd: app, timeout: 60_000 });
      expect(JSON.parse(stdout)).toEqual({ status: 200, body: { message: 'Hello, Ada!' } });
    });
  }
});
