import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

// docs/security.md is Tessera's answer to a security review: each ASVS 5.0 requirement of the
// chapters it covers, with a verdict and the test that proves it. A verdict without its evidence,
// or a link to a test that was moved or deleted, would make the page claim what nothing checks.
const root = join(import.meta.dirname, '..', '..');
const PAGE = 'docs/security.md';

/** The verdicts a row may give (the page's own legend says what each means). */
const VERDICTS = ['pass', 'pass, opt-in', 'partial', 'fail', "the app's"] as const;
/** Verdicts that need no proving test: nothing of Tessera's to prove. */
const UNPROVED = new Set<string>(['fail', "the app's"]);

/**
 * The Level 1 and 2 requirement numbers of ASVS 5.0 in the chapters the page covers (V6, V7, V8,
 * V9, V10, V11, V14, V16), from the standard's 5.0 release: each must be on the page, as a row or
 * in a chapter's list of the app's.
 */
const ASVS_L1_L2: Readonly<Record<string, string>> = {
  V6: '6.1.1 6.1.2 6.1.3 6.2.1 6.2.2 6.2.3 6.2.4 6.2.5 6.2.6 6.2.7 6.2.8 6.2.9 6.2.10 6.2.11 6.2.12 6.3.1 6.3.2 6.3.3 6.3.4 6.4.1 6.4.2 6.4.3 6.4.4 6.5.1 6.5.2 6.5.3 6.5.4 6.5.5 6.6.1 6.6.2 6.6.3 6.8.1 6.8.2 6.8.3 6.8.4',
  V7: '7.1.1 7.1.2 7.1.3 7.2.1 7.2.2 7.2.3 7.2.4 7.3.1 7.3.2 7.4.1 7.4.2 7.4.3 7.4.4 7.4.5 7.5.1 7.5.2 7.6.1 7.6.2',
  V8: '8.1.1 8.1.2 8.2.1 8.2.2 8.2.3 8.3.1 8.4.1',
  V9: '9.1.1 9.1.2 9.1.3 9.2.1 9.2.2 9.2.3 9.2.4',
  V10: '10.1.1 10.1.2 10.2.1 10.2.2 10.3.1 10.3.2 10.3.3 10.3.4 10.4.1 10.4.2 10.4.3 10.4.4 10.4.5 10.4.6 10.4.7 10.4.8 10.4.9 10.4.10 10.4.11 10.5.1 10.5.2 10.5.3 10.5.4 10.5.5 10.6.1 10.6.2 10.7.1 10.7.2 10.7.3',
  V11: '11.1.1 11.1.2 11.2.1 11.2.2 11.2.3 11.3.1 11.3.2 11.3.3 11.4.1 11.4.2 11.4.3 11.4.4 11.5.1 11.6.1',
  V14: '14.1.1 14.1.2 14.2.1 14.2.2 14.2.3 14.2.4 14.3.1 14.3.2 14.3.3',
  V16: '16.1.1 16.2.1 16.2.2 16.2.3 16.2.4 16.2.5 16.3.1 16.3.2 16.3.3 16.3.4 16.4.1 16.4.2 16.4.3 16.5.1 16.5.2 16.5.3',
};

interface Row {
  readonly line: number;
  readonly requirement: string;
  readonly verdict: string;
  readonly provedBy: string;
}

/** The rows of the page's requirement tables (those whose header starts with `| Requirement |`). */
function requirementRows(markdown: string): Row[] {
  const rows: Row[] = [];
  let inTable = false;
  markdown.split('\n').forEach((text, index) => {
    if (!text.startsWith('|')) {
      inTable = false;
      return;
    }
    if (text.startsWith('| Requirement |')) {
      inTable = true;
      return;
    }
    if (!inTable || text.startsWith('| ---')) return;
    const cells = text.split(' | ').map((cell) => cell.replace(/^\| ?| ?\|$/g, '').trim());
    rows.push({ line: index + 1, requirement: cells[0] ?? '', verdict: cells[2] ?? '', provedBy: cells[4] ?? '' });
  });
  return rows;
}

/** The relative link targets of a Markdown text, without anchors. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] ?? '')
    .filter((target) => target !== '' && !/^(https?:|mailto:|#)/.test(target))
    .map((target) => target.split('#')[0] ?? '');
}

/** Checks a page's text; answers what is wrong (empty when nothing is). */
function problemsOf(markdown: string, exists: (path: string) => boolean): string[] {
  const problems: string[] = [];
  for (const target of relativeLinks(markdown)) {
    const path = normalize(join(dirname(PAGE), target));
    if (!exists(path)) problems.push(`a link to ${path}, which is not in the repository`);
  }
  const rows = requirementRows(markdown);
  if (rows.length === 0) problems.push('no requirement rows');
  for (const row of rows) {
    const where = `line ${row.line} (${row.requirement.slice(0, 40)})`;
    if (!(VERDICTS as readonly string[]).includes(row.verdict)) problems.push(`${where}: verdict "${row.verdict}" is not one of ${VERDICTS.join(' / ')}`);
    const tests = relativeLinks(row.provedBy).filter((target) => target.endsWith('.test.ts'));
    if (!UNPROVED.has(row.verdict) && tests.length === 0) problems.push(`${where}: a "${row.verdict}" row without a link to the test that proves it`);
  }
  return problems;
}

const exists = (path: string) => existsSync(join(root, path));

describe('docs/security.md', () => {
  const page = readFileSync(join(root, PAGE), 'utf8');

  it('links only to files of the repository, gives every row a known verdict and every verdict but "fail" and "the app\'s" a test', () => {
    expect(problemsOf(page, exists), 'rows or links of docs/security.md').toEqual([]);
  });

  it('would notice a broken test link, an unknown verdict and a pass without a test', () => {
    const [first] = requirementRows(page);
    expect(first, 'no row to plant into').toBeDefined();
    const lines = page.split('\n');
    const original = lines[(first?.line ?? 1) - 1] ?? '';
    const plant = (row: string) => problemsOf([...lines.slice(0, (first?.line ?? 1) - 1), row, ...lines.slice(first?.line ?? 1)].join('\n'), exists);
    const moved = original.replace(/\(\.\.\/([^)]+)\.test\.ts\)/, '(../$1-moved.test.ts)');
    expect(moved, 'the first row has no test link to break').not.toBe(original);
    expect(plant(moved).join('\n')).toContain('-moved.test.ts, which is not in the repository');
    expect(plant(original.replace(/\| (pass|partial|pass, opt-in) \|/, '| mostly |')).join('\n')).toContain('verdict "mostly"');
    const cells = original.split(' | ');
    expect(plant([...cells.slice(0, 2), 'pass', cells[3], '— |'].join(' | ')).join('\n')).toContain('a "pass" row without a link');
  });

  it('lists every Level 1 and 2 requirement of its chapters, as a row or as the app\'s', () => {
    const rowNumbers = new Set(requirementRows(page).map((row) => row.requirement.split(' ')[0]));
    const listed = page
      .split('\n')
      .filter((line) => line.startsWith('- '))
      .join(' ');
    const ranges = [...listed.matchAll(/(\d+)\.(\d+)\.(\d+) to \1\.\2\.(\d+)/g)].flatMap(([, a, b, from, to]) =>
      Array.from({ length: Number(to) - Number(from) + 1 }, (_, i) => `${a}.${b}.${Number(from) + i}`),
    );
    const onPage = (id: string) => rowNumbers.has(id) || ranges.includes(id) || new RegExp(`(^|[^\\d.])${id.replaceAll('.', '\\.')}(?![\\d])`).test(listed);
    const missing = Object.values(ASVS_L1_L2).flatMap((ids) => ids.split(' ')).filter((id) => !onPage(id));
    expect(missing, 'ASVS 5.0 Level 1/2 requirements the page does not judge').toEqual([]);
  });

  it('counts its rows as they are', () => {
    const ids = new Set(Object.values(ASVS_L1_L2).flatMap((list) => list.split(' ')));
    const judged = requirementRows(page).filter((row) => ids.has(row.requirement.split(' ')[0] ?? ''));
    const count = (verdict: string) => judged.filter((row) => row.verdict === verdict).length;
    const expected = `${judged.length} rows (${count('pass')} pass, ${count('pass, opt-in')} pass opt-in, ${count('partial')} partial, ${count('fail')} fail, ${count("the app's")} the app's) and ${ids.size - judged.length} requirements`;
    const sentence = /\*\*In numbers\*\*[^]*?\n\n/.exec(page)?.[0].replace(/\s+/g, ' ') ?? '(no "In numbers" paragraph)';
    expect(sentence, 'the "In numbers" paragraph').toContain(expected);
  });
});
