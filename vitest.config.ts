import { defineConfig } from 'vitest/config';

export default defineConfig({
  // vite 8's oxc transform must emit decorator metadata for the facade (see docs/toolchain.md).
  oxc: { decorator: { legacy: true, emitDecoratorMetadata: true } },
  test: {
    include: ['lib/**/*.test.ts', 'facade/**/*.test.ts', 'examples/**/*.test.ts', 'test/**/*.test.ts', 'property-tests/**/*.test.ts'],
    testTimeout: 20_000,
    pool: 'forks',
    // Quiet: console output only from failing tests (measurements and expected error logs of
    // passing ones stay out of the way), and one line for everything skipped.
    silent: 'passed-only',
    reporters: ['default', './test/support/skipped-summary-reporter.ts'],
    typecheck: { enabled: false },
  },
});
