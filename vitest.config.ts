import { defineConfig } from 'vitest/config';

/** Every test file: unit, integration and property tests. */
const ALL = ['lib/**/*.test.ts', 'facade/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts', 'property-tests/**/*.test.ts'];

/**
 * Test files that hold real time, real sockets, real servers or child processes: graceful close,
 * stalls and outages, several instances, the other runtimes, the browser. They run one at a time,
 * after the rest, so that a second worker competing for the CPU never stretches a wait they
 * measure. Everything else (injected clocks, `app.request`) runs on two workers.
 */
const REAL_TIME = [
  'lib/adapters/**/*.test.ts',
  'lib/websocket/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/postgres/**/*.test.ts',
  'test/redis/**/*.test.ts',
  'test/pubsub/**/*.test.ts',
  'test/runtimes/**/*.test.ts',
  'test/websocket/**/*.test.ts',
  'test/browser/**/*.test.ts',
  'examples/**/*-live*.test.ts',
  'test/jobs/**/*.test.ts',
];

/**
 * Test files that replace a module with `vi.mock`: a mock applies to a fresh module registry, so
 * these run isolated (a fresh worker per file). Listed by test/tooling/isolated-files.test.ts,
 * which fails when a file starts mocking a module without being listed here.
 */
export const MODULE_MOCKS = ['lib/auth/credentials/api-keys/api-key-authenticator.work.test.ts', 'lib/auth/credentials/password/create-password-hasher.fallback.test.ts'];

/**
 * Test files that measure their own process's event-loop pauses against a fixed bound: in a shared
 * worker, the heap earlier files left behind adds garbage-collection pauses of its own (a 320 ms
 * gap against the 200 ms bound in the first full run without isolation), so they run isolated too.
 */
export const OWN_PROCESS_TIMING = ['lib/auth/credentials/password/default-password-hasher.test.ts'];

/**
 * Test files that fake the clock (`vi.useFakeTimers`): the fake Date subclasses the worker's Date
 * and assigns its statics, so it fails ("Cannot assign to read only property 'now'") in a worker
 * where anything earlier left Date's statics read-only, which a shared worker cannot rule out (two
 * such files failed so in a full run on 2026-11-28 and passed alone). Isolated, each gets a fresh
 * Date. Listed by test/tooling/module-mocks.test.ts like MODULE_MOCKS.
 */
export const FAKE_CLOCKS = ['lib/jobs/platform-schedules.test.ts', 'lib/pubsub/app-bus.test.ts', 'lib/resilience/heartbeat.test.ts'];

export default defineConfig({
  // vite 8's oxc transform must emit decorator metadata for the facade (see docs/toolchain.md).
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: {
    testTimeout: 20_000,
    pool: 'forks',
    // Quiet: console output only from failing tests (measurements and expected error logs of
    // passing ones stay out of the way), and one line for everything skipped.
    silent: 'passed-only',
    reporters: ['default', './test/support/skipped-summary-reporter.ts'],
    typecheck: { enabled: false },
    projects: [
      // Two workers: vitest's default on 2 cores is one (cores - 1), which left a core idle.
      // Not isolated: each worker imports lib/ once for all the files it runs instead of once per
      // file (a fresh process per file spent ~130 s of CPU importing, measured in issue 45). A file
      // must therefore leave no state behind (restore what it stubs, close what it opens).
      { extends: true, test: { name: 'unit', include: ALL, exclude: [...REAL_TIME, ...MODULE_MOCKS, ...OWN_PROCESS_TIMING, ...FAKE_CLOCKS], isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'unit-isolated', include: [...MODULE_MOCKS, ...OWN_PROCESS_TIMING, ...FAKE_CLOCKS], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'real-time', include: REAL_TIME, maxWorkers: 1, sequence: { groupOrder: 1 } } },
    ],
  },
});
