import type { HealthCheck } from '../internal.js';
import type { SqlClient } from './sql-client.js';

/**
 * A readiness check for the database behind the PostgreSQL stores: `select 1` through the same
 * client. The app's health option bounds it with its timeout; a pool that cannot hand out a
 * connection, or a server that does not answer, counts as down.
 *
 * @example
 * const app = await createApp(AppModule, { health: { checks: [postgresHealthCheck(pool)] } });
 */
export function postgresHealthCheck(client: SqlClient, name = 'database'): HealthCheck {
  return {
    name,
    async check() {
      await client.query('select 1');
    },
  };
}
