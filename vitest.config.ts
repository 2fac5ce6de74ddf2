import { defineConfig } from 'vitest/config';

/** Every test file: unit, integration and property tests. */
const ALL = ['lib/**/*.test.ts', 'facade/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts', 'property-tests/**/*.test.ts'];

/**
 * Test files that hold real time, real sockets, real servers or child processes: graceful close,
 * stalls and outages, several instances, the other runtimes, the browser. They run one at a time,
 * after the rest, so that a second worker competing for the CPU never stretches a wait they
 * measure (those of REAL_UNTIMED, which measure none, run two at a time after them). Everything
 * else (injected clocks, `app.request`) runs on two workers.
 */
export const REAL_TIME = [
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
 * Real-server files whose tests read no clock and wait only for an outcome (a bounded wait that
 * fails when the outcome never comes, never a window in which something must or must not happen):
 * a second worker beside them can slow them but cannot change their answer. They run two at a time,
 * after the timed ones, and without isolation (most of their cost was a fresh process and imports
 * per file; none leaves a server, socket, timer or child process behind: `--detectAsyncLeaks` finds
 * only pending promises). test/tooling/real-untimed.test.ts keeps every entry a real-time file that
 * reads no clock (Date.now, performance.now, hrtime).
 */
export const REAL_UNTIMED = [
  'lib/adapters/node/body-utf8.test.ts',
  'lib/adapters/node/default-server.test.ts',
  'lib/adapters/node/framing-errors.test.ts',
  'lib/adapters/node/lifecycle-over-socket.test.ts',
  'lib/adapters/node/serve-static.test.ts',
  'lib/adapters/node/upgraded-incoming.test.ts',
  'examples/blog/blog-live.test.ts',
  'test/browser/blog-in-browser.test.ts',
  'test/jobs/job-processes.test.ts',
  'test/postgres/auth-module-wiring.test.ts',
  'test/postgres/migrate.test.ts',
  'test/postgres/outside-sign-in-instances.test.ts',
  'test/postgres/race-control.test.ts',
  'test/postgres/second-factors.test.ts',
  'test/postgres/session-max-age.test.ts',
  'test/postgres/sessions-per-device.test.ts',
  'test/postgres/tenant-posts.test.ts',
  'test/postgres/tenants-pglite.test.ts',
  'test/postgres/touch-revoke-race.test.ts',
  'test/postgres/two-instances.test.ts',
  'test/runtimes/busy-port.test.ts',
  'test/runtimes/platform-schedules.test.ts',
  'test/runtimes/trace-context.test.ts',
  'test/websocket/named-client.test.ts',
  'test/websocket/settle-upgrade.test.ts',
  'test/websocket/standard-schema-socket.test.ts',
  'test/websocket/standard-socket-binding.test.ts',
  'test/websocket/typed-socket-send.test.ts',
];

/**
 * Test files that replace a module with `vi.mock`: a mock applies to a fresh module registry, so
 * these run isolated (a fresh worker per file). Listed by test/tooling/module-mocks.test.ts,
 * which fails when a file starts mocking a module without being listed here.
 */
export const MODULE_MOCKS = ['lib/auth/credentials/api-keys/api-key-authenticator.work.test.ts', 'lib/auth/credentials/password/create-password-hasher.fallback.test.ts'];

/**
 * Test files that fake timers (`vi.useFakeTimers`): they replace Date and the timer functions, which
 * in a shared worker an earlier file may have left changed (CI on main 30ff432 and on issue-45-ci2,
 * 2026-11-28: all three failed at `vi.useFakeTimers()` with "Cannot assign to read only property
 * 'now' of function ClockDate", never when run alone), so they run isolated. Kept equal to the files
 * that do by test/tooling/module-mocks.test.ts.
 */
export const FAKE_TIMERS = ['lib/jobs/platform-schedules.test.ts', 'lib/pubsub/app-bus.test.ts', 'lib/resilience/heartbeat.test.ts'];

/**
 * Test files that measure their own process's event-loop pauses against a fixed bound: in a shared
 * worker, the heap earlier files left behind adds garbage-collection pauses of its own (a 320 ms
 * gap against the 200 ms bound in the first full run without isolation), so they run isolated too.
 */
export const OWN_PROCESS_TIMING = ['lib/auth/credentials/password/default-password-hasher.test.ts'];

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
      { extends: true, test: { name: 'unit', include: ALL, exclude: [...REAL_TIME, ...MODULE_MOCKS, ...FAKE_TIMERS, ...OWN_PROCESS_TIMING], isolate: false, maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'unit-isolated', include: [...MODULE_MOCKS, ...FAKE_TIMERS, ...OWN_PROCESS_TIMING], maxWorkers: 2, sequence: { groupOrder: 0 } } },
      { extends: true, test: { name: 'real-time', include: REAL_TIME, exclude: REAL_UNTIMED, maxWorkers: 1, sequence: { groupOrder: 1 } } },
      { extends: true, test: { name: 'real-untimed', include: REAL_UNTIMED, isolate: false, maxWorkers: 2, sequence: { groupOrder: 2 } } },
    ],
  },
});
