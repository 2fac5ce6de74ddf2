import type { HealthCheck, SharedEngineCheckOptions } from '../index.js';
import type { SqlClient } from './sql-client.js';
import { assertSqlClient } from './sql-client-check.js';

/**
 * A readiness check for the database behind the PostgreSQL stores: `select 1` through the same
 * client. The app's health option bounds it with its timeout; a pool that cannot hand out a
 * connection, or a server that does not answer, counts as down. Not critical by default: every
 * instance shares the database, and a 503 from all of them would empty the balancer while the
 * routes that need no database still answer and the others answer a clear 503 themselves;
 * readiness stays 200 (`degraded`). `{ critical: true }` makes it a 503.
 *
 * @example
 * const app = await createApp(AppModule, { health: { checks: [postgresHealthCheck(pool)] } });
 */
export function postgresHealthCheck(client: SqlClient, options: SharedEngineCheckOptions = {}): HealthCheck {
  // Refused here: a dummy client would read as a database that is down, at every readiness probe.
  assertSqlClient(client, 'postgresHealthCheck');
  return {
    name: options.name ?? 'database',
    critical: options.critical ?? false,
    async check() {
      await client.query('select 1');
    },
  };
}
