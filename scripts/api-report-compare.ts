// Reading two API reports (API Extractor's .api.md) declaration by declaration, so that a failing
// check names what changed (an export added, removed, or a declaration whose text changed)
// rather than showing a raw diff of a 1,000-line file.

/** How one entry's report differs from the checked-in one. */
export interface ReportDifference {
  /** Declarations in the new report only. */
  readonly added: readonly string[];
  /** Declarations in the checked-in report only. */
  readonly removed: readonly string[];
  /** Declarations in both whose text differs (a signature, a member, a doc-visible modifier). */
  readonly changed: readonly string[];
  /** One line: what is added, removed and changed, or that only the text between declarations differs. */
  readonly summary: string;
}

const DECLARATION = /^(export\s+)?(?:declare\s+)?(?:abstract\s+)?(?:const\s+enum|class|interface|type|const|let|var|function|enum|namespace|module)\s+([\w$]+)/;

/** The name a report chunk declares: `Name`, `Name (not exported)` for a type the entry names but does not export, or its first line. */
function nameOf(chunk: string): string {
  const code = chunk.split('\n').filter((line) => !line.startsWith('//'));
  const first = code[0];
  if (first === undefined) return '(comments)';
  if (first.startsWith('import ')) return '(imports)';
  const match = DECLARATION.exec(first);
  if (match === null) return first;
  return match[1] === undefined ? `${match[2]} (not exported)` : (match[2] as string);
}

/**
 * The declarations of one report, by name (overloads joined), in the report's order.
 *
 * @example
 * declarationsOf('```ts\n// @public\nexport function get(): void;\n```').get('get'); // '// @public\nexport function get(): void;'
 */
export function declarationsOf(text: string): Map<string, string> {
  const report = text.replaceAll('\r\n', '\n');
  const start = report.indexOf('```ts\n');
  const end = report.lastIndexOf('\n```');
  const body = start === -1 || end <= start ? report : report.slice(start + 6, end);
  const declarations = new Map<string, string>();
  // A declaration starts after a blank line at the left margin; blank lines inside a namespace are indented.
  for (const chunk of body.split(/\n\n+(?=\S)/)) {
    const text = chunk.trim();
    if (text === '' || text.startsWith('// (No @packageDocumentation comment')) continue;
    const name = nameOf(text);
    const previous = declarations.get(name);
    declarations.set(name, previous === undefined ? text : `${previous}\n\n${text}`);
  }
  return declarations;
}

/**
 * How the report `after` differs from `before`, or undefined when their text is the same.
 *
 * @example
 * compareReport(checkedIn, rebuilt)?.summary; // 'added: getRequestId; changed: App'
 */
export function compareReport(before: string | undefined, after: string | undefined): ReportDifference | undefined {
  if (before === after) return undefined;
  const old = declarationsOf(before ?? '');
  const now = declarationsOf(after ?? '');
  const added = [...now.keys()].filter((name) => !old.has(name));
  const removed = [...old.keys()].filter((name) => !now.has(name));
  const changed = [...now.keys()].filter((name) => old.has(name) && old.get(name) !== now.get(name));
  const parts = [
    before === undefined ? 'new report' : '',
    after === undefined ? 'no such entry any more' : '',
    added.length > 0 ? `added: ${added.join(', ')}` : '',
    removed.length > 0 ? `removed: ${removed.join(', ')}` : '',
    changed.length > 0 ? `changed: ${changed.join(', ')}` : '',
  ].filter((part) => part !== '');
  return { added, removed, changed, summary: parts.length > 0 ? parts.join('; ') : 'the text between declarations differs (order or layout)' };
}

/**
 * Every report file whose text differs between `before` and `after` (both keyed by file name), with how.
 *
 * @example
 * compareReports(checkedInReports(), buildReports()).size === 0; // the surface is as reported
 */
export function compareReports(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): Map<string, ReportDifference> {
  const differences = new Map<string, ReportDifference>();
  for (const file of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const difference = compareReport(before.get(file), after.get(file));
    if (difference !== undefined) differences.set(file, difference);
  }
  return differences;
}

/**
 * The failure message for one entry whose API differs from its report: the entry, the names, the command.
 *
 * @example
 * describeDifference('tessera-http/auth', 'tessera-http-auth.api.md', difference);
 */
export function describeDifference(specifier: string, reportFile: string, difference: ReportDifference): string {
  return [
    `The public API of ${specifier} differs from api-report/${reportFile}: ${difference.summary}.`,
    'If the change is intended, run `npm run api:report` and commit the updated report in the same commit',
    '(and name a breaking change, with its migration, in CHANGELOG.md).',
  ].join('\n');
}
