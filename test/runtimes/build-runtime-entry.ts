import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';

const root = join(import.meta.dirname, '..', '..');

const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, { import?: { default?: string } }> };

/**
 * The package specifier a source entry file stands for, by the repository's layout:
 * `lib/index.js` is `tessera-http`, `lib/<path>/index.js` and `lib/<path>.js` are `tessera-http/<path>`,
 * `facade/index.js` is `tessera-http/facade`. Undefined when package.json does not export it.
 *
 * @example
 * packageSpecifierOf('../../lib/auth/index.js'); // 'tessera-http/auth'
 */
export function packageSpecifierOf(sourcePath: string): string | undefined {
  const match = /(?:^|\/)(lib|facade)\/(.+)\.js$/.exec(sourcePath);
  if (match === null) return undefined;
  const [, top, file] = match as unknown as [string, 'lib' | 'facade', string];
  const inner = file.replace(/(^|\/)index$/, '');
  const subpath = top === 'facade' ? ['facade', inner].filter(Boolean).join('/') : inner;
  const specifier = subpath === '' ? 'tessera-http' : `tessera-http/${subpath}`;
  return manifest.exports[subpath === '' ? '.' : `./${subpath}`] === undefined ? undefined : specifier;
}

/**
 * The ESM file of the built package behind `specifier` (`tessera-http`, `tessera-http/auth`, ...), read
 * from package.json `exports` the way an ESM importer resolves it, so bundles use exactly `dist/`.
 *
 * @example
 * distFileOf('tessera-http/auth'); // '/work/main/dist/auth.js'
 */
export function distFileOf(specifier: string): string {
  const subpath = specifier === 'tessera-http' ? '.' : `.${specifier.slice('tessera-http'.length)}`;
  const target = manifest.exports[subpath]?.import?.default;
  if (target === undefined) throw new Error(`package.json exports has no ESM entry for ${specifier}`);
  return join(root, target);
}

/** Rewrites the examples' imports of the sources (`../../lib/index.js`) to the package (`tessera-http`). */
export function sourcesToPackage(mode: 'external' | 'bundled'): Plugin {
  return {
    name: 'sources-to-package',
    setup(b) {
      b.onResolve({ filter: /^(\.\.\/)+(lib|facade)\// }, (args) => {
        // A dependency's own relative imports (jose has a lib/ folder too) are not ours to rewrite.
        if (args.importer.includes('/node_modules/')) return undefined;
        const specifier = packageSpecifierOf(args.path);
        if (specifier === undefined) {
          return { errors: [{ text: `${args.path} is not an entry point of the package (package.json "exports"): code built against dist/ cannot import it` }] };
        }
        return mode === 'external' ? { path: specifier, external: true } : { path: distFileOf(specifier) };
      });
      if (mode === 'bundled') b.onResolve({ filter: /^tessera-http(\/|$)/ }, (args) => ({ path: distFileOf(args.path) }));
    },
  };
}

/** How a runtime entry is built. */
export interface RuntimeBuildOptions {
  /**
   * `external`: the package and its dependencies stay imports (`tessera-http`, `zod`, ...), which the
   * runtime resolves itself from package.json `exports` and node_modules: Node, Bun, Deno.
   * `bundled`: one self-contained file, as wrangler deploys it to Workers.
   */
  readonly mode: 'external' | 'bundled';
}

/** What a build took in and left to the runtime. */
export interface RuntimeBuild {
  /** Files bundled in, relative to the repository root. */
  readonly inputs: readonly string[];
  /** Imports left for the runtime to resolve (`tessera-http`, `zod`, ...). */
  readonly externalImports: readonly string[];
}

/**
 * Bundles a runtime entry of `examples/runtimes/` so that it runs against the built package
 * (`dist/`), never the TypeScript sources of lib/.
 *
 * @example
 * await buildRuntimeEntry('examples/runtimes/deno.ts', 'test/runtimes/.build/deno.js', { mode: 'external' });
 */
export async function buildRuntimeEntry(entry: string, outfile: string, options: RuntimeBuildOptions): Promise<RuntimeBuild> {
  const result = await build({
    entryPoints: [join(root, entry)],
    outfile: join(root, outfile),
    absWorkingDir: root,
    bundle: true,
    format: 'esm',
    target: 'es2022',
    logLevel: 'silent',
    metafile: true,
    ...(options.mode === 'external'
      ? { platform: 'neutral', external: ['zod', 'jose', '@noble/hashes', 'hash-wasm'] }
      : // What wrangler does for a module worker: browser platform with the worker conditions.
        { platform: 'browser', conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'] }),
    plugins: [sourcesToPackage(options.mode)],
  });
  const outputs = Object.values(result.metafile.outputs);
  return {
    inputs: Object.keys(result.metafile.inputs),
    externalImports: [...new Set(outputs.flatMap((output) => output.imports.filter((entry) => entry.external).map((entry) => entry.path)))],
  };
}
