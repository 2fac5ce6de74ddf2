// Usage: node --import ./scripts/register-swc.mjs scripts/build-packed.ts
//
// The build `npm test` makes: dist/ exactly as the registry's package ships it. The work tree is
// packed once per content (test/support/packed-tarball.ts: a copy as a fresh clone has it, where
// npm's `prepack` runs tsup) and the tarball's dist/ replaces ./dist. The packed-package and
// package-hygiene tests then find that tarball in .cache/packed/ instead of building a second
// time (tsup with declarations is ~50 s of CPU), and the tests that read dist/ read the files
// that ship. `npm run build` (tsup into ./dist directly) stays the build for everything else.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packedTarball } from '../test/support/packed-tarball.js';

const root = join(import.meta.dirname, '..');
// No time bound: like `npm run build`, this build takes what the machine needs.
const { tarball } = await packedTarball({ timeoutMs: 0 });
mkdirSync(join(root, '.cache'), { recursive: true });
const unpacked = mkdtempSync(join(root, '.cache', 'dist-'));
try {
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, 'package/dist']);
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  renameSync(join(unpacked, 'package', 'dist'), join(root, 'dist'));
} finally {
  rmSync(unpacked, { recursive: true, force: true });
}
