import type { Reporter, TestModule } from 'vitest/node';

/**
 * Prints one line at the end of a run naming the suites that were skipped as a whole (the
 * real-PostgreSQL suites without `TEST_DATABASE_URL`, say), and how many single tests were skipped,
 * so that a run without a database is never mistaken for one that ran everything, without a
 * warning per file.
 *
 * @example
 * // vitest.config.ts
 * reporters: ['default', './test/support/skipped-summary-reporter.ts'],
 */
export default class SkippedSummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const suites: string[] = [];
    let single = 0;
    for (const module of testModules) {
      for (const suite of module.children.suites()) {
        const tests = [...suite.children.allTests()];
        if (tests.length > 0 && tests.every((test) => test.result().state === 'skipped')) suites.push(suite.name);
        else single += tests.filter((test) => test.result().state === 'skipped').length;
      }
      for (const test of module.children.tests()) if (test.result().state === 'skipped') single++;
    }
    if (suites.length === 0 && single === 0) return;
    const parts: string[] = [];
    if (suites.length > 0) {
      const needsDatabase = suites.some((name) => name.includes('TEST_DATABASE_URL'));
      parts.push(`${suites.length} suite(s): ${suites.join('; ')}${needsDatabase ? ' (set TEST_DATABASE_URL: eval "$(scripts/postgres/start-test-server.sh)")' : ''}`);
    }
    if (single > 0) parts.push(`${single} single test(s)`);
    process.stdout.write(`\nSkipped ${parts.join('; ')}\n`);
  }
}
