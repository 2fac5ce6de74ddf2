import { build } from 'tsup';

/**
 * Bundles an example so that its imports of the sources (`../../lib/index.js`, `../../facade/index.js`,
 * `../../lib/openapi/index.js`, ...) become imports of the built package (`tessera-http`, `tessera-http/facade`,
 * `tessera-http/openapi`), resolved through the package's own `exports` to `dist/`. tsup compiles it
 * with swc, as a user's build would, so decorator metadata must survive for the app to boot.
 */
export async function buildExampleAgainstDist(entry: string, outDir: string): Promise<void> {
  const toPackage: Record<string, string> = {
    'lib/index.js': 'tessera-http',
    'facade/index.js': 'tessera-http/facade',
    'lib/openapi/index.js': 'tessera-http/openapi',
    'lib/auth/index.js': 'tessera-http/auth',
    'lib/node.js': 'tessera-http/node',
  };
  await build({
    entry: [entry],
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'es2022',
    bundle: true,
    splitting: false,
    dts: false,
    silent: true,
    clean: true,
    config: false,
    external: ['tessera-http', /^tessera-http\//, 'zod'],
    esbuildPlugins: [
      {
        name: 'sources-to-dist',
        setup(b) {
          b.onResolve({ filter: /^(\.\.\/)+(lib|facade)\// }, (args) => {
            const suffix = Object.keys(toPackage).find((key) => args.path.endsWith(key));
            return suffix ? { path: toPackage[suffix] as string, external: true } : undefined;
          });
        },
      },
    ],
  });
}
