import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

// Every TypeScript and JavaScript block of the README and docs/ compiles as its own module, as a
// reader would paste it into a project that installed tessera-http. `tessera-http/...` resolves
// to the sources of each entry. A block may declare what the prose around it takes as given
// (`AppModule`, a `pool`) in an HTML comment right above it, visible in the source:
// <!-- snippet-prelude: declare const pool: import('pg').Pool; -->
const root = join(import.meta.dirname, '..', '..');
const out = join(root, 'test', 'docs', '.snippets');

/** The package's entries, as a reader imports them, to the source files they are built from. */
const ENTRIES: Readonly<Record<string, string>> = {
  'tessera-http': 'lib/index-node.ts',
  'tessera-http/facade': 'facade/index.ts',
  'tessera-http/auth': 'lib/auth/index.ts',
  'tessera-http/auth/postgres': 'lib/auth/postgres/index.ts',
  'tessera-http/postgres': 'lib/postgres/index.ts',
  'tessera-http/redis': 'lib/redis/index.ts',
  'tessera-http/jobs': 'lib/jobs/index.ts',
  'tessera-http/openapi': 'lib/openapi/index.ts',
  'tessera-http/node': 'lib/node.ts',
  'tessera-http/fetch': 'lib/fetch.ts',
  'tessera-http/middleware': 'lib/middleware/index.ts',
  'tessera-http/otel': 'lib/otel/index.ts',
  'tessera-http/testing': 'lib/testing/index.ts',
  'tessera-http/client': 'lib/client/index.ts',
};

interface Snippet {
  readonly where: string;
  readonly file: string;
  readonly lineOffset: number;
}

function extract(): Snippet[] {
  const docs = ['README.md', ...readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
  const snippets: Snippet[] = [];
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out, { recursive: true });
  for (const doc of docs) {
    const lines = readFileSync(join(root, doc), 'utf8').split('\n');
    for (let i = 0; i < lines.length; i++) {
      const open = /^```(ts|js)\s*$/.exec(lines[i] ?? '');
      if (open === null) continue;
      const start = i + 1;
      let end = start;
      while (end < lines.length && lines[end] !== '```') end++;
      const prelude = /^<!-- snippet-prelude: (.*) -->$/.exec(lines[i - 1] ?? '')?.[1];
      const body = lines.slice(start, end).join('\n');
      const name = `${doc.replace(/[/.]/g, '_')}_${start + 1}.${open[1]}`;
      // `export {}` makes every block a module (top-level await, no leaking globals between blocks).
      writeFileSync(join(out, name), `${prelude ?? ''}\n${body}\nexport {};\n`);
      snippets.push({ where: `${doc}:${start + 1}`, file: join(out, name), lineOffset: start - 1 });
      i = end;
    }
  }
  return snippets;
}

afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('README and docs/ snippets', () => {
  it('type-check, each as its own module, against the package entries', () => {
    const snippets = extract();
    expect(snippets.length, 'the docs have snippets to check').toBeGreaterThan(10);
    const program = ts.createProgram(
      snippets.map((s) => s.file),
      {
        strict: true,
        noUncheckedIndexedAccess: true,
        exactOptionalPropertyTypes: false,
        experimentalDecorators: true,
        emitDecoratorMetadata: true,
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.ESNext,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        allowJs: true,
        checkJs: false,
        noEmit: true,
        skipLibCheck: true,
        types: ['node'],
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
        baseUrl: root,
        paths: Object.fromEntries(Object.entries(ENTRIES).map(([specifier, source]) => [specifier, [source]])),
      },
    );
    const bySnippet = new Map(snippets.map((s) => [s.file, s]));
    const problems = ts
      .getPreEmitDiagnostics(program)
      .filter((d) => d.file !== undefined && bySnippet.has(d.file.fileName))
      .map((d) => {
        const snippet = bySnippet.get(d.file?.fileName ?? '') as Snippet;
        const { line } = d.file?.getLineAndCharacterOfPosition(d.start ?? 0) ?? { line: 0 };
        return `${snippet.where.split(':')[0]}:${snippet.lineOffset + line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
      });
    expect(problems, 'snippets that do not compile as pasted').toEqual([]);
  }, 120_000);
});
