import { describe, expect, it } from 'vitest';
import { compareReport, compareReports, declarationsOf, describeDifference } from '../../scripts/api-report-compare.js';

// How a difference between two API reports is named (scripts/api-report-compare.ts), on reports
// written the way API Extractor writes them; test/package/api-report.test.ts uses it on the real ones.
function report(...declarations: string[]): string {
  return ['## API Report File for "tessera-http"', '', '```ts', '', "import { z } from 'zod';", '', ...declarations.flatMap((text) => [text, '']), '```', ''].join('\n');
}
const get = '// @public\nexport const get: RouteHelper<\'GET\'>;';
const app = '// @public\nexport interface App {\n    close(): Promise<void>;\n}';
const appChanged = '// @public\nexport interface App {\n    close(force?: boolean): Promise<void>;\n}';
const overloadA = '// @public\nexport function headerOf(name: string): string;';
const overloadB = '// @public\nexport function headerOf(name: string, fallback: string): string;';
const namespace = '// @public\nexport namespace Problems {\n    const a = 1;\n\n    const b = 2;\n}';
const hidden = '// Warning: (ae-forgotten-export) The symbol "RouteHelper" needs to be exported\n//\n// @public\ntype RouteHelper<M> = { method: M };';

describe('comparing two API reports', () => {
  it('finds no difference between two equal reports', () => {
    expect(compareReport(report(get, app), report(get, app))).toBeUndefined();
  });

  it('names an export that was added', () => {
    expect(compareReport(report(app), report(get, app))?.added, 'the added name').toEqual(['get']);
  });

  it('names an export that was removed', () => {
    expect(compareReport(report(get, app), report(app))?.removed, 'the removed name').toEqual(['get']);
  });

  it('names a declaration whose signature changed', () => {
    const difference = compareReport(report(get, app), report(get, appChanged));
    expect([difference?.changed, difference?.added, difference?.removed], 'changed, added, removed').toEqual([['App'], [], []]);
  });

  it('reads overloads as one declaration, so a new overload is a change of that name', () => {
    expect(compareReport(report(overloadA), report(overloadA, overloadB))?.changed, 'the overloaded name').toEqual(['headerOf']);
  });

  it('keeps a namespace whole across the blank lines inside it', () => {
    expect([...declarationsOf(report(namespace, get)).keys()], 'declarations read').toEqual(['(imports)', 'Problems', 'get']);
  });

  it('marks a type the entry names but does not export', () => {
    expect([...declarationsOf(report(hidden)).keys()], 'declarations read').toContain('RouteHelper (not exported)');
  });

  it('reads CRLF reports like LF ones', () => {
    expect(declarationsOf(report(get, app).replaceAll('\n', '\r\n')), 'declarations of the CRLF report').toEqual(declarationsOf(report(get, app)));
  });

  it('says when only the layout between declarations differs', () => {
    expect(compareReport(report(get, app), report(app, get))?.summary, 'summary of a reordering').toBe('the text between declarations differs (order or layout)');
  });

  it('lists only the report files that differ, a missing or a new one included', () => {
    const before = new Map([['a.api.md', report(get)], ['b.api.md', report(app)], ['gone.api.md', report(app)]]);
    const after = new Map([['a.api.md', report(get)], ['b.api.md', report(appChanged)], ['new.api.md', report(get)]]);
    expect([...compareReports(before, after).keys()], 'differing files').toEqual(['b.api.md', 'gone.api.md', 'new.api.md']);
  });

  it('fails with a message naming the entry, the report, the changed names and the command that updates it', () => {
    const difference = compareReport(report(get, app), report(appChanged, overloadA));
    if (difference === undefined) throw new Error('the reports should differ');
    const message = describeDifference('tessera-http', 'tessera-http.api.md', difference);
    for (const part of ['tessera-http', 'api-report/tessera-http.api.md', 'added: headerOf', 'removed: get', 'changed: App', 'npm run api:report']) expect(message, `the message names ${part}`).toContain(part);
  });
});
