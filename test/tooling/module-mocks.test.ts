import { readdirSync, readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_TIMERS, MODULE_MOCKS, REAL_TIME, REAL_UNTIMED } from '../../vitest.config.js';

// The unit project runs without isolation (one module registry per worker, shared by the files it
// runs), where a `vi.mock` would not apply to a module an earlier file already imported, or would
// leak into the next file. Files that mock modules run in the isolated project instead: this test
// keeps vitest.config.ts's list equal to the files that do.
const root = join(import.meta.dirname, '..', '..');
const testRoots = ['lib', 'facade', 'examples', 'test', 'property-tests'];

function testFiles(): string[] {
  return testRoots.flatMap((dir) =>
    readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.test.ts') && !file.split(/[\\/]/).includes('node_modules'))
      .map((file) => `${dir}/${file.split('\\').join('/')}`),
  );
}

describe('the isolated test project', () => {
  it('lists exactly the test files that mock a module (vi.mock, vi.doMock)', () => {
    const mocking = testFiles().filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(join(root, file), 'utf8')));
    expect([...MODULE_MOCKS].sort(), 'vitest.config.ts MODULE_MOCKS: files that mock modules must run isolated').toEqual(mocking.sort());
  });

  it('lists exactly the unit test files that fake timers (vi.useFakeTimers)', () => {
    const faking = testFiles().filter((file) => /\bvi\.useFakeTimers\(/.test(readFileSync(join(root, file), 'utf8')));
    // The real-time project already runs isolated (real-untimed does not): only the others need the list.
    const isolatedAnyway = (file: string) => REAL_TIME.some((glob) => matchesGlob(file, glob)) && !REAL_UNTIMED.includes(file);
    expect([...FAKE_TIMERS].sort(), 'vitest.config.ts FAKE_TIMERS: files that fake timers must run isolated').toEqual(faking.filter((file) => !isolatedAnyway(file)).sort());
  });
});
