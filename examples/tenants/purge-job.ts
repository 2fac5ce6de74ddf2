import { createToken, type Token } from '../../lib/index.js';
import { defineJob } from '../../lib/jobs/index.js';

/**
 * What the purge does on the app's stores, answering how many rows each part removed: provided
 * by the stores' module. The PostgreSQL stores delete expired mail tokens, second-factor
 * challenges and pending second-factor sign-ins, outside sign-in flows, and the ended windows of
 * every rate limit they count (API keys, account mails, the sign-in throttle, the account routes).
 * The in-memory ones have nothing to purge (their counters drop ended windows as they go), nor do
 * Redis counters (each window's key expires on its own).
 *
 * @example
 * defineFactory(PURGE_WORK, [ACCOUNTS], (accounts) => async () => ({ mailTokens: await accounts.purgeExpiredTokens(new Date()) }));
 */
export const PURGE_WORK: Token<() => Promise<Record<string, number>>> = createToken<() => Promise<Record<string, number>>>('TenantsPurgeWork');

/**
 * The tenants app's scheduled purge, on `PURGE_CRON`: each fire runs once across every instance,
 * and an instance that starts after a fire nobody ran runs the latest one (`missed: 'run-once'`).
 *
 * @example
 * providers: [purgeJob(config.purgeCron)]
 */
export function purgeJob(cron: string) {
  return defineJob({
    name: 'tenants.purge',
    schedule: { cron, missed: 'run-once' },
    inject: [PURGE_WORK],
    retries: 2,
    handler: async (_payload, { providers: [purge], log }) => {
      const removed = await purge();
      log.info({ removed }, 'tenants: purged expired tokens, challenges and flows, and ended rate-limit windows');
    },
  });
}
