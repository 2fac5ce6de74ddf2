import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exampleDocuments } from './example-documents.js';

// The two linters users run on OpenAPI documents in CI, as their command lines, on the blog's and
// the tenants app's documents, and on the blog's with its schemas in valibot and ArkType.
// Warnings are allowed (for example "operation-4xx-response" on `GET /posts`, which cannot answer
// a 4xx); errors are not.
const bin = (name: string) => join(import.meta.dirname, '..', '..', '..', 'node_modules', '.bin', name);
const run = promisify(execFile);

interface Finding {
  readonly rule: string;
  readonly where: string;
  readonly message: string;
}

/** Runs a linter that exits non-zero on errors; its JSON report is on stdout either way. */
async function lint(command: string, args: string[]): Promise<string> {
  try {
    return (await run(command, args, { maxBuffer: 16 * 1024 * 1024, timeout: 120_000 })).stdout;
  } catch (error) {
    const stdout = (error as { stdout?: string }).stdout;
    if (typeof stdout === 'string' && stdout.trim() !== '') return stdout;
    throw error;
  }
}

async function redoclyErrors(file: string): Promise<Finding[]> {
  const report = JSON.parse(await lint(bin('redocly'), ['lint', '--extends=recommended', '--format=json', file])) as {
    problems: { ruleId: string; severity: string; message: string; location: { pointer: string }[] }[];
  };
  return report.problems
    .filter((p) => p.severity === 'error')
    .map((p) => ({ rule: p.ruleId, where: p.location[0]?.pointer ?? '', message: p.message }));
}

async function spectralErrors(file: string, ruleset: string): Promise<Finding[]> {
  const report = JSON.parse(await lint(bin('spectral'), ['lint', '--ruleset', ruleset, '--format', 'json', '--quiet', file])) as {
    code: string; severity: number; message: string; path: string[];
  }[];
  // Spectral's severities: 0 error, 1 warning, 2 info, 3 hint.
  return report.filter((p) => p.severity === 0).map((p) => ({ rule: p.code, where: p.path.join('.'), message: p.message }));
}

describe('the example documents pass the OpenAPI linters', () => {
  let dir: string;
  const files: Record<string, string> = {};
  let ruleset: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'tessera-lint-'));
    for (const [name, doc] of Object.entries(await exampleDocuments())) {
      files[name] = join(dir, `${name}.json`);
      writeFileSync(files[name], JSON.stringify(doc, null, 2));
    }
    ruleset = join(dir, '.spectral.yaml');
    writeFileSync(ruleset, 'extends: ["spectral:oas"]\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  for (const name of ['blog', 'tenants', 'blog-valibot', 'blog-arktype']) {
    it(`${name}: @redocly/cli lint (recommended) reports 0 errors`, async () => {
      expect(await redoclyErrors(files[name] as string), `redocly errors in the ${name} document`).toEqual([]);
    });
    it(`${name}: @stoplight/spectral-cli (spectral:oas) reports 0 errors`, async () => {
      expect(await spectralErrors(files[name] as string, ruleset), `spectral errors in the ${name} document`).toEqual([]);
    });
  }
});
