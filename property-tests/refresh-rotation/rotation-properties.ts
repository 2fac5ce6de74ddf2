// Declares the model-based property tests for a set of store/grace configurations. Each test
// file passes a share of the configurations, so vitest can run them in parallel.
//
// What runs: random sequences of sign-in, issueTokens, refresh of any token ever issued
// (current, old, revoked, garbage), concurrent refreshes of one token interleaved by
// fast-check's scheduler, sign-out, revokeAllSessions, account changes and clock advances
// (across the grace window and refresh expiry), against the real service with an in-memory
// store variant, checked against rotation-model.ts after every step. The properties asserted in
// rotation-world.ts:
// - at most one successor per token; of N concurrent refreshes of an active token exactly one
//   succeeds and N-1 get 401, and any successor stored by a loser is revoked;
// - a replay outside the grace window leaves no active token in the family (or of the subject,
//   for stores without revokeFamily);
// - a replay inside the grace window changes nothing;
// - no operation succeeds with a revoked, rotated or expired token;
// - signOut is idempotent;
// - every outcome, and the full stored state of every token, equals the model's.
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { operationsArb } from './rotation-operations.js';
import { RotationWorld, newCoverage } from './rotation-world.js';
import type { Coverage, WorldConfig } from './rotation-world.js';

/** Runs per configuration; override with ROTATION_RUNS (e.g. 2000 for a soak). */
const NUM_RUNS = Number(process.env['ROTATION_RUNS'] ?? 120);

function nameOf(config: WorldConfig): string {
  return `rotate=${config.rotate} revokeFamily=${config.revokeFamily} grace=${config.graceSeconds}s`;
}

/**
 * Declares one property test per configuration.
 *
 * @example
 * defineRotationProperties('atomic rotate stores', [{ rotate: true, revokeFamily: true, graceSeconds: 0 }]);
 */
export function defineRotationProperties(title: string, configs: readonly WorldConfig[]): void {
  describe(title, () => {
    const totals = newCoverage();

    it.each(configs.map((config) => [nameOf(config), config] as const))('%s', async (_name, config) => {
      const coverage = newCoverage();
      await fc.assert(
        fc.asyncProperty(fc.scheduler(), operationsArb, async (scheduler, operations) => {
          const world = new RotationWorld(config, scheduler, coverage);
          for (const operation of operations) await world.apply(operation);
        }),
        { numRuns: NUM_RUNS },
      );
      // The generators must reach the interesting rows of the table for this configuration.
      expect(coverage.successes).toBeGreaterThan(0);
      expect(coverage.reuse).toBeGreaterThan(0);
      expect(coverage.concurrentSingleWinner).toBeGreaterThan(0);
      if (config.graceSeconds > 0) expect(coverage.withinGrace).toBeGreaterThan(0);
      else expect(coverage.concurrentWinnerThenReuse).toBeGreaterThan(0);
      if (!config.rotate) expect(coverage.orphansRevoked).toBeGreaterThan(0);
      for (const key of Object.keys(totals) as (keyof Coverage)[]) totals[key] += coverage[key];
      if (process.env['ROTATION_COVERAGE']) console.log(nameOf(config), JSON.stringify(coverage));
    });

    afterAll(() => {
      // Rarer rows, checked over all of this file's configurations.
      expect(totals.expiredRefused).toBeGreaterThan(0);
      expect(totals.raceRefreshFirst).toBeGreaterThan(0);
      expect(totals.raceRevocationFirst).toBeGreaterThan(0);
    });
  });
}
