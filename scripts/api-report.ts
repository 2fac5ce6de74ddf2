// The API report of every entry point: what `tessera-http` and each subpath export, one
// api-report/<entry>.api.md per entry, written by API Extractor from the built declarations
// (dist/*.d.ts, the files a consumer's TypeScript reads). test/package/api-report.test.ts
// rebuilds the reports and fails when they differ from the checked-in ones, so a change to the
// public API lands together with its report (and a CHANGELOG.md entry when it breaks callers).
//
//   npm run api:report        (builds dist/ with tsup, then rewrites api-report/)
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig, ExtractorLogLevel, type IConfigFile } from '@microsoft/api-extractor';
import { compareReports, type ReportDifference } from './api-report-compare.js';

const root = join(import.meta.dirname, '..');
/** Where the checked-in reports live. */
export const REPORT_FOLDER = join(root, 'api-report');

/** One public entry point: its import specifier, its built declarations and its report's file name. */
export interface EntryPoint {
  readonly specifier: string;
  readonly declarations: string;
  readonly reportFile: string;
}

/** The entry points package.json `exports` declares, each with the declarations its `import` condition names. */
export function entryPoints(): EntryPoint[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; exports: Record<string, unknown> };
  return Object.entries(manifest.exports)
    .filter(([subpath]) => subpath !== './package.json')
    .map(([subpath, conditions]) => {
      const types = (conditions as { import?: { types?: string } }).import?.types;
      if (types === undefined) throw new Error(`package.json exports["${subpath}"] has no import.types: the API report reads the declarations from there`);
      const specifier = subpath === '.' ? manifest.name : `${manifest.name}/${subpath.slice(2)}`;
      return { specifier, declarations: join(root, types), reportFile: `${specifier.replaceAll('/', '-')}.api.md` };
    });
}

/** API Extractor's settings for one entry; every report is written to `outDir`. */
function extractorConfig(entry: EntryPoint, allDeclarations: readonly string[], outDir: string): ExtractorConfig {
  const configObject: IConfigFile = {
    projectFolder: root,
    mainEntryPointFilePath: entry.declarations,
    newlineKind: 'lf', // API Extractor's default is CRLF
    // The declarations alone, compiled as a consumer would (skipLibCheck: zod's and Node's own
    // declarations are not ours to report on).
    compiler: {
      overrideTsconfig: {
        compilerOptions: { target: 'es2022', module: 'esnext', moduleResolution: 'bundler', lib: ['es2023', 'dom', 'dom.iterable'], types: ['node'], strict: true, skipLibCheck: true },
        files: allDeclarations,
      },
    },
    apiReport: { enabled: true, reportFileName: entry.reportFile, reportFolder: outDir, reportTempFolder: outDir },
    docModel: { enabled: false },
    dtsRollup: { enabled: false },
    tsdocMetadata: { enabled: false },
    messages: {
      compilerMessageReporting: { default: { logLevel: ExtractorLogLevel.Error } },
      // A type the API names but the entry does not export is part of the surface (a consumer
      // cannot name it): the report says so in place. Other advice (release tags, TSDoc style)
      // is not this project's convention and stays out.
      extractorMessageReporting: { default: { logLevel: ExtractorLogLevel.None }, 'ae-forgotten-export': { logLevel: ExtractorLogLevel.None, addToApiReportFile: true } },
      tsdocMessageReporting: { default: { logLevel: ExtractorLogLevel.None } },
    },
  };
  return ExtractorConfig.prepare({ configObject, configObjectFullPath: join(root, 'api-extractor.json'), packageJsonFullPath: join(root, 'package.json') });
}

/** Builds the report of every entry from dist/ (tsup must have run) and returns each report's text by file name. */
export function buildReports(): Map<string, string> {
  const entries = entryPoints();
  const outDir = mkdtempSync(join(tmpdir(), 'tessera-api-report-'));
  try {
    const declarations = entries.map((entry) => entry.declarations);
    const missing = declarations.filter((file) => {
      try {
        readFileSync(file);
        return false;
      } catch {
        return true;
      }
    });
    if (missing.length > 0) throw new Error(`no built declarations at ${missing.join(', ')}: run \`npx tsup\` (or \`npm run api:report\`, which builds first)`);
    // The repository's TypeScript, not API Extractor's bundled one: one compiler for the build and the report.
    const typescriptCompilerFolder = dirname(createRequire(import.meta.url).resolve('typescript/package.json'));
    const first = entries[0];
    if (first === undefined) throw new Error('package.json exports no entry point');
    // One program for all entries (they share chunks): about 4 s for the first, well under 1 s for each other.
    const compilerState = CompilerState.create(extractorConfig(first, declarations, outDir), { typescriptCompilerFolder, additionalEntryPoints: declarations });
    const reports = new Map<string, string>();
    for (const entry of entries) {
      const errors: string[] = [];
      const result = Extractor.invoke(extractorConfig(entry, declarations, outDir), {
        localBuild: true,
        compilerState,
        typescriptCompilerFolder,
        messageCallback: (message) => {
          if (message.logLevel === ExtractorLogLevel.Error) errors.push(message.formatMessageWithLocation(root));
          message.handled = true; // quiet: what matters is in the report or in `errors`
        },
      });
      if (!result.succeeded || errors.length > 0) throw new Error(`API Extractor failed on ${entry.specifier}:\n${errors.join('\n')}`);
      // API Extractor titles every report with the package's name; the entry's is what a reader needs.
      // Its closing list of warnings points into dist/ by line and column, which any change to the
      // bundle moves: dropped (the same warnings stand in place, beside the declaration they concern).
      const text = readFileSync(join(outDir, entry.reportFile), 'utf8')
        .replace(/^## API Report File for "[^"]*"/, `## API Report File for "${entry.specifier}"`)
        .replace(/\/\/ Warnings were encountered during analysis:\n(?:\/\/.*\n)*\n/, '');
      reports.set(entry.reportFile, text);
    }
    return reports;
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The checked-in reports by file name. */
export function checkedInReports(): Map<string, string> {
  let files: string[] = [];
  try {
    files = readdirSync(REPORT_FOLDER).filter((file) => file.endsWith('.api.md'));
  } catch {
    // no folder yet: every entry's report is then missing, which the test names
  }
  return new Map(files.map((file) => [file, readFileSync(join(REPORT_FOLDER, file), 'utf8')]));
}

/** Rewrites api-report/ from dist/ and returns what changed, per report file. */
export function writeReports(): Map<string, ReportDifference> {
  const before = checkedInReports();
  const after = buildReports();
  rmSync(REPORT_FOLDER, { recursive: true, force: true });
  mkdirSync(REPORT_FOLDER, { recursive: true });
  for (const [file, text] of after) writeFileSync(join(REPORT_FOLDER, file), text);
  return compareReports(before, after);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const changes = writeReports();
  for (const [file, difference] of changes) console.log(`${file}: ${difference.summary}`);
  console.log(`wrote ${entryPoints().length} reports to api-report/ in ${Math.round(performance.now() - started)} ms${changes.size === 0 ? ' (no change)' : ''}`);
}
