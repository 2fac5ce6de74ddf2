import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';

// What a Workers or browser user's bundler does with the core entry point, `tessera-http`:
// dist/index.js bundled for a platform without Node's modules.

const root = join(import.meta.dirname, '..', '..');
const core = join(root, 'dist', 'index.js');

// Names that exist only in tessera-http/auth, tessera-http/openapi or their dependencies.
const FOREIGN_CODE = ['AuthConfigError', 'hashPassword', 'argon2', 'jwtVerify', 'SignJWT', 'generateOpenApiDocument', 'serveOpenApi', 'toJSONSchema'];
// @noble/hashes' SHA-256 and @noble/ciphers' XChaCha20-Poly1305 are the core's own (idempotent()
// hashes small inputs and seals small answers synchronously; the etag middleware hashes too):
// their modules and the files they need are allowed, any other module of either package
// (argon2, hmac, hkdf: auth's; AES, whose tables leak timings; salsa, ff1) is not.
const CORE_NOBLE = /node_modules\/@noble\/(hashes\/(sha2|_md|_u64|utils)|ciphers\/(chacha|_arx|_poly1305|utils))\.js$/;
const FOREIGN_PACKAGES = { test: (input: string) => /node_modules\/(jose|hash-wasm|@node-rs|zod)\//.test(input) || (/node_modules\/@noble\//.test(input) && !CORE_NOBLE.test(input)) };

const NEUTRAL: BuildOptions = {
  entryPoints: [core],
  bundle: true,
  write: false,
  metafile: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['module', 'main'],
  logLevel: 'silent',
};

/** Every module the bundle took in, and every import it left to the runtime. */
function modulesOf(metafile: Metafile | undefined): { inputs: string[]; leftImports: string[] } {
  if (metafile === undefined) throw new Error('esbuild returned no metafile');
  return {
    inputs: Object.keys(metafile.inputs),
    leftImports: Object.values(metafile.outputs).flatMap((output) => output.imports.map((entry) => entry.path)),
  };
}

beforeAll(() => {
  if (!existsSync(core)) throw new Error('dist/ is missing: `npm test` builds it first (npm run build).');
});

describe('the modules the core bundle may take from @noble', () => {
  it('allows the SHA-256 and XChaCha20-Poly1305 files and refuses every other module of the packages', () => {
    const allowed = ['hashes/sha2', 'hashes/_md', 'hashes/_u64', 'hashes/utils', 'ciphers/chacha', 'ciphers/_arx', 'ciphers/_poly1305', 'ciphers/utils'];
    const refused = ['hashes/argon2', 'hashes/hmac', 'hashes/hkdf', 'hashes/sha3', 'ciphers/aes', 'ciphers/_polyval', 'ciphers/salsa', 'ciphers/ff1', 'ciphers/webcrypto', 'ciphers/index'];
    const path = (name: string) => `node_modules/@noble/${name}.js`;
    expect(allowed.filter((name) => FOREIGN_PACKAGES.test(path(name))), 'core modules refused').toEqual([]);
    expect(refused.filter((name) => !FOREIGN_PACKAGES.test(path(name))), 'foreign modules allowed').toEqual([]);
  });
});

describe('the core entry point, bundled for a platform without Node', () => {
  // Nothing is marked external: a `node:*` (or `http`) import anywhere, even behind app.listen's
  // dynamic import, fails the build, as it fails wrangler's.
  it('bundles with no node:* module and leaves no import to the runtime', async () => {
    const result = await build(NEUTRAL);
    const { inputs, leftImports } = modulesOf(result.metafile);
    expect(inputs.filter((input) => /^(node:|http$)/.test(input))).toEqual([]);
    expect(leftImports).toEqual([]);
  });

  it('contains no auth or OpenAPI code and none of their dependencies', async () => {
    // `http` is left out only so that this runs before the node:http gap above is fixed.
    const result = await build({ ...NEUTRAL, external: ['http', 'node:*'] });
    const { inputs } = modulesOf(result.metafile);
    expect(inputs.filter((input) => FOREIGN_PACKAGES.test(input))).toEqual([]);
    expect(inputs.filter((input) => /dist\/(auth|openapi|facade)\.js$/.test(input))).toEqual([]);
    const text = result.outputFiles?.[0]?.text ?? '';
    expect(text.length).toBeGreaterThan(10_000);
    expect(FOREIGN_CODE.filter((name) => text.includes(name))).toEqual([]);
  });
});
