import { existsSync, readFileSync } from 'node:fs';
import { join, matchesGlob } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MODULE_MOCKS, REAL_TIME, REAL_UNTIMED } from '../../vitest.config.js';

// The real-time files of REAL_UNTIMED run two at a time, not isolated (vitest.config.ts): a second worker may
// slow them, so none may measure time. This keeps the list to real-time files that read no clock;
// a file that starts timing something leaves the list and runs alone again.
const root = join(import.meta.dirname, '..', '..');
const CLOCK_READS = /\bDate\.now\(|\bperformance\.now\(|\bprocess\.hrtime\b/;

describe('the real-time files that run two at a time (REAL_UNTIMED)', () => {
  it('lists files that exist and are real-time files, once each', () => {
    const wrong = REAL_UNTIMED.filter((file) => !existsSync(join(root, file)) || !REAL_TIME.some((glob) => matchesGlob(file, glob)));
    expect(wrong, 'vitest.config.ts REAL_UNTIMED: entries that are missing or outside REAL_TIME').toEqual([]);
    expect(new Set(REAL_UNTIMED).size, 'vitest.config.ts REAL_UNTIMED lists a file twice').toBe(REAL_UNTIMED.length);
  });

  it('lists no file that mocks a module (its project shares one module registry per worker)', () => {
    expect(REAL_UNTIMED.filter((file) => MODULE_MOCKS.includes(file)), 'vitest.config.ts: a file in MODULE_MOCKS and REAL_UNTIMED').toEqual([]);
  });

  it('lists only files that read no clock (Date.now, performance.now, process.hrtime)', () => {
    const timing = REAL_UNTIMED.filter((file) => existsSync(join(root, file)) && CLOCK_READS.test(readFileSync(join(root, file), 'utf8')));
    expect(timing, 'vitest.config.ts REAL_UNTIMED: these files read a clock and must run alone (take them out of the list)').toEqual([]);
  });
});
