import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

// The README and the guides ship in the package and are read from node_modules/tessera-http as
// often as from the repository. Every file they point to (a relative link, or a path in backticks
// under examples/, bench/ or docs/) must ship too, so that a reference works where it is read.
// Paths under test/ name the repository's evidence and say so in the README; a guide may link to the
// repository's test files (docs/security.md's proofs) when a paragraph before the first such link
// says they are the repository's, not the package's; bench/README.md is the
// method of the repository's bench harness (its scripts stay in the repository), shipped for the
// results it explains, so it is not held to this rule; a path the repository ignores (a data
// folder an example creates) is made at run time.
const root = join(import.meta.dirname, '..', '..');

function shippedFiles(): Set<string> {
  // npm's own answer to "what is in the tarball", without building (no prepack).
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const [pack] = JSON.parse(out) as [{ files: { path: string }[] }];
  return new Set(pack.files.map((file) => file.path));
}

function resolves(shipped: Set<string>, path: string): boolean {
  const clean = normalize(path).replace(/\/$/, '');
  if (shipped.has(clean)) return true;
  for (const file of shipped) if (file.startsWith(`${clean}/`)) return true; // a shipped folder
  return false;
}

/**
 * The paragraphs of a Markdown text with their first line number; a fenced code block or a table
 * joins the paragraph before it (the sentence that introduces it).
 */
function paragraphsOf(markdown: string): { text: string; line: number }[] {
  const paragraphs: { text: string; line: number }[] = [];
  let fenced = false;
  let current: { text: string; line: number } | undefined;
  let previous: { text: string; line: number } | undefined;
  markdown.split('\n').forEach((raw, index) => {
    const startsFence = raw.trimStart().startsWith('```');
    if (!fenced && raw.trim() === '') {
      if (current !== undefined) paragraphs.push(current);
      previous = current ?? previous;
      current = undefined;
      return;
    }
    if (current === undefined) {
      const joinsPrevious = (startsFence || raw.trimStart().startsWith('|')) && previous !== undefined && !previous.text.startsWith('#');
      current = joinsPrevious && previous !== undefined ? { text: `${paragraphs.pop()?.text ?? previous.text}\n`, line: previous.line } : { text: '', line: index + 1 };
    }
    current.text += `${raw}\n`;
    if (startsFence) fenced = !fenced;
  });
  if (current !== undefined) paragraphs.push(current);
  return paragraphs;
}

/** The repository-only commands a text names: paths under scripts/ the package does not ship, and `npm run`/`npm test`/`npm start` of the repository's scripts. */
function repositoryOnlyCommands(text: string, shipped: Set<string>, scripts: readonly string[]): string[] {
  const paths = [...text.matchAll(/\bscripts\/[\w./-]+/g)].map((match) => match[0]).filter((path) => !shipped.has(path));
  const npmScripts = [...text.matchAll(/\bnpm (?:run ([\w:-]+)|(test|start)\b)/g)].filter((match) => scripts.includes(match[1] ?? match[2] ?? '')).map((match) => match[0]);
  return [...new Set([...paths, ...npmScripts])];
}

/** The repository's test files (tracked by git), which the package never ships. */
const repositoryTests = new Set(execFileSync('git', ['ls-files', '*.test.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter((path) => path !== ''));
const isRepositoryTest = (path: string) => repositoryTests.has(path);

/**
 * Where a text has said that the tests it links are the repository's (the end of the first
 * paragraph that says so, as an offset), or undefined: from there on it may link to them.
 */
function repositoryTestsAnnounced(text: string): number | undefined {
  let offset = 0;
  for (const paragraph of text.split(/\n\s*\n/)) {
    offset += paragraph.length;
    if (/\btests?\b/i.test(paragraph) && /repositor/i.test(paragraph) && /(do not|don't|never) ship|not (in|from) the package|not from `node_modules`/i.test(paragraph)) return offset;
    offset += 2;
  }
  return undefined;
}

describe('references in the shipped docs', () => {
  const shipped = shippedFiles();
  const docs = [...shipped].filter((file) => file.endsWith('.md') && file !== 'bench/README.md');
  const madeAtRunTime = (path: string) => {
    try {
      execFileSync('git', ['check-ignore', '-q', path], { cwd: root, stdio: 'ignore' });
      return true;
    } catch {
      return false;
    }
  };

  it('ship the README and every guide', () => {
    expect(docs, 'README.md is in the package').toContain('README.md');
    expect(docs.filter((file) => file.startsWith('docs/')).length, 'the guides are in the package').toBeGreaterThan(10);
  });

  it('point only to files the package ships', () => {
    const broken: string[] = [];
    for (const doc of docs) {
      const text = readFileSync(join(root, doc), 'utf8');
      const saysTestsAreTheRepositorys = repositoryTestsAnnounced(text);
      for (const { 1: target, index } of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (target === undefined || /^(https?:|mailto:|#)/.test(target)) continue;
        const path = normalize(join(dirname(doc), target.split('#')[0] ?? ''));
        if (resolves(shipped, path)) continue;
        const announced = saysTestsAreTheRepositorys !== undefined && index >= saysTestsAreTheRepositorys;
        if (announced && isRepositoryTest(path)) continue;
        broken.push(`${doc}: link ${target}${isRepositoryTest(path) && !announced ? ' (a test of the repository: say so in a paragraph before the first such link)' : ''}`);
      }
      for (const [, path] of text.matchAll(/`((?:examples|bench|docs)\/[^`\s]*)`/g)) {
        if (path !== undefined && !resolves(shipped, path) && !madeAtRunTime(path)) broken.push(`${doc}: \`${path}\``);
      }
    }
    expect(broken, 'references to files the package does not ship').toEqual([]);
  });

  // A package user has neither the repository's files outside the package nor its npm scripts:
  // `npm run db:migrate` in their project runs their own script, if any. A shipped doc may still
  // cite such a command (how a figure was measured, how to run the repository's tests), but the
  // paragraph must say it is the repository's; a code block or table is read with the paragraph
  // before it. bench/ documents are exempt (above).
  it("name a repository-only command (an unshipped file, the repository's npm scripts) only in a paragraph that says it is the repository's", () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    const unmarked: string[] = [];
    for (const doc of docs.filter((file) => !file.startsWith('bench/'))) {
      for (const { text, line } of paragraphsOf(readFileSync(join(root, doc), 'utf8'))) {
        const commands = repositoryOnlyCommands(text, shipped, Object.keys(manifest.scripts));
        if (commands.length > 0 && !/repositor|\bclone\b/i.test(text)) unmarked.push(`${doc}:${line}: ${commands.join(', ')}`);
      }
    }
    expect(unmarked, 'repository-only commands shown to package users without saying so (say "in a clone of the repository", or show what a package user runs)').toEqual([]);
  });

  it('list every entry point of the package in the README', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const entries = Object.keys(manifest.exports).filter((key) => key !== './package.json').map((key) => (key === '.' ? 'tessera-http' : `tessera-http/${key.slice(2)}`));
    const unnamed = entries.filter((entry) => !readme.includes(`\`${entry}\``));
    expect(unnamed, 'entry points the README does not name').toEqual([]);
  });
});
