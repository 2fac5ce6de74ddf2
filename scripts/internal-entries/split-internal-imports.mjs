// The repository's migration for issue 47's split of the satellites' internal entry: rewrites
// every import or re-export from `lib/internal.js` (the old one-file internal entry) into imports
// from `lib/index.js` (public names) and the named entries of `lib/internal/` (the rest), each
// name to the entry that exports it. Run it after merging a branch written against the old entry:
//   node scripts/internal-entries/split-internal-imports.mjs [files...]   (default: every tracked .ts)
// A name no entry exports is reported and its import left as it was, so the type-check fails on it.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(dirname(new URL(import.meta.url).pathname), '..', '..');
const OLD_ENTRY = join(root, 'lib/internal.ts');
const CORE_ENTRY = join(root, 'lib/index.ts');
const INTERNAL_DIR = join(root, 'lib/internal');

/** name -> absolute path of the entry exporting it (public names: the core entry). */
function entryOfEachName() {
  const entries = [CORE_ENTRY, ...readdirSync(INTERNAL_DIR).filter((f) => f.endsWith('.ts')).map((f) => join(INTERNAL_DIR, f))];
  const program = ts.createProgram(entries, { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, target: ts.ScriptTarget.ES2022, experimentalDecorators: true, skipLibCheck: true, noEmit: true });
  const checker = program.getTypeChecker();
  const map = new Map();
  for (const entry of entries) {
    const symbol = checker.getSymbolAtLocation(program.getSourceFile(entry));
    for (const exported of checker.getExportsOfModule(symbol)) if (!map.has(exported.name)) map.set(exported.name, entry);
  }
  return map;
}

function specifierFor(fromFile, entry) {
  let spec = relative(dirname(fromFile), entry).replace(/\.ts$/, '.js');
  if (!spec.startsWith('.')) spec = `./${spec}`;
  return spec;
}

function rewrite(file, entryOf) {
  const text = readFileSync(file, 'utf8');
  if (!text.includes('internal.js')) return { changed: false, unknown: [] };
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const edits = [];
  const unknown = [];
  for (const statement of source.statements) {
    const isImport = ts.isImportDeclaration(statement);
    const isExport = ts.isExportDeclaration(statement);
    if (!isImport && !isExport) continue;
    const moduleSpecifier = statement.moduleSpecifier;
    if (moduleSpecifier === undefined || !ts.isStringLiteral(moduleSpecifier)) continue;
    const target = resolve(dirname(file), moduleSpecifier.text).replace(/\.js$/, '.ts');
    if (target !== OLD_ENTRY) continue;
    let typeOnly, elements, keyword;
    if (isImport) {
      const clause = statement.importClause;
      if (!clause || !clause.namedBindings || !ts.isNamedImports(clause.namedBindings) || clause.name) {
        unknown.push(`${relative(root, file)}: an import of lib/internal.js other than named imports`);
        continue;
      }
      typeOnly = clause.isTypeOnly;
      elements = clause.namedBindings.elements;
      keyword = 'import';
    } else {
      if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) {
        unknown.push(`${relative(root, file)}: an export * of lib/internal.js`);
        continue;
      }
      typeOnly = statement.isTypeOnly;
      elements = statement.exportClause.elements;
      keyword = 'export';
    }
    const groups = new Map();
    let missing = false;
    for (const element of elements) {
      const imported = (element.propertyName ?? element.name).text;
      const entry = entryOf.get(imported);
      if (entry === undefined) {
        unknown.push(`${relative(root, file)}: ${imported}`);
        missing = true;
        continue;
      }
      if (!groups.has(entry)) groups.set(entry, []);
      groups.get(entry).push(element.getText(source));
    }
    if (missing) continue;
    // The core entry first, then the internal entries by name.
    const ordered = [...groups.keys()].sort((a, b) => (a === CORE_ENTRY ? -1 : b === CORE_ENTRY ? 1 : a.localeCompare(b)));
    const lines = ordered.map((entry) => {
      const names = groups.get(entry);
      // `import { type A }` keeps the module as a side-effect import under verbatimModuleSyntax
      // (it would pull the core into the browser client's bundle): all-type groups are `import type`.
      const allTypes = !typeOnly && names.every((name) => name.startsWith('type '));
      const list = allTypes ? names.map((name) => name.slice('type '.length)) : names;
      return `${keyword} ${typeOnly || allTypes ? 'type ' : ''}{ ${list.join(', ')} } from '${specifierFor(file, entry)}';`;
    });
    edits.push({ start: statement.getStart(source), end: statement.getEnd(), replacement: lines.join('\n') });
  }
  if (edits.length === 0) return { changed: false, unknown };
  let out = text;
  for (const edit of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, edit.start) + edit.replacement + out.slice(edit.end);
  writeFileSync(file, out);
  return { changed: true, unknown };
}

const files = process.argv.length > 2
  ? process.argv.slice(2).map((f) => resolve(f))
  : execFileSync('git', ['ls-files', '*.ts'], { cwd: root, encoding: 'utf8' }).split('\n').filter((f) => f && !f.startsWith('dist/')).map((f) => join(root, f));
const entryOf = entryOfEachName();
let changed = 0;
const unknown = [];
for (const file of files) {
  const result = rewrite(file, entryOf);
  if (result.changed) changed++;
  unknown.push(...result.unknown);
}
console.log(`rewrote ${changed} files`);
if (unknown.length > 0) {
  console.error(`left as they were (no entry exports these names):\n  ${unknown.join('\n  ')}`);
  process.exitCode = 1;
}
