import { beforeAll, describe, expect, it } from 'vitest';
import { compareReport, describeDifference } from '../../scripts/api-report-compare.js';
import { buildReports, checkedInReports, entryPoints } from '../../scripts/api-report.js';
import { nodeSpecificRun } from '../support/node-specific-run.js';

// The public surface changes on purpose (issue 47): the report of every entry point, rebuilt
// here from dist/ (npm test runs tsup first; alone, run `npx tsup` before this file), must equal
// the one checked into api-report/. An export added or removed, or a changed signature, fails
// until `npm run api:report` rewrites the report in the same commit, where the diff shows it.
// The report depends on the declarations and TypeScript, not on Node: the Node-specific run skips it.
describe.skipIf(nodeSpecificRun)('the API report of every entry point (api-report/*.api.md)', () => {
  const entries = entryPoints();
  const checkedIn = checkedInReports();
  let built = new Map<string, string>();

  beforeAll(() => {
    built = buildReports();
  }, 180_000);

  it('has exactly one checked-in report per entry point of package.json exports', () => {
    expect([...checkedIn.keys()].sort(), 'reports in api-report/ (run `npm run api:report` to add or drop one)').toEqual(entries.map((entry) => entry.reportFile).sort());
  });

  for (const entry of entries) {
    it(`${entry.specifier}: the built API is the one its report records`, () => {
      expect(built.has(entry.reportFile), `a report was built for ${entry.specifier}`).toBe(true);
      const difference = compareReport(checkedIn.get(entry.reportFile), built.get(entry.reportFile));
      expect(difference === undefined ? '' : describeDifference(entry.specifier, entry.reportFile, difference), 'API report differs').toBe('');
    });
  }
});
