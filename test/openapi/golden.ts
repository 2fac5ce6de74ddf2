import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * Compares a document with its reviewed golden file in `__golden__/`. A missing file fails the
 * test. To regenerate after an intended change, run with `UPDATE_GOLDEN=1`, review the diff by
 * eye, and commit it.
 */
export function expectGolden(name: string, document: unknown): { actual: string; expected: string } {
  const file = fileURLToPath(new URL(`./__golden__/${name}`, import.meta.url));
  const actual = `${JSON.stringify(document, null, 2)}\n`;
  if (process.env.UPDATE_GOLDEN === '1') writeFileSync(file, actual);
  if (!existsSync(file)) throw new Error(`Golden file ${file} is missing; generate it with UPDATE_GOLDEN=1, review it, commit it.`);
  return { actual, expected: readFileSync(file, 'utf8') };
}
