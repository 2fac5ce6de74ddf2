import { createApp, type Clock } from '../../lib/index.js';
import { postgresHealthCheck } from '../../lib/auth/postgres/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { runApp } from '../shared/run-app.js';
import { startTelemetry } from '../shared/telemetry.js';
import { readTenantsConfig } from './config.js';
import { auth } from './claims.js';
import { serveTenantsOpenApi } from './openapi.js';
import { createTenantsModule } from './tenants-module.js';
import { openTenantsDatabase, readTenantsDatabaseConfig } from './postgres/tenants-database.js';
import { createPostgresTenantsStores } from './postgres/tenants-stores.js';

const telemetry = await startTelemetry(process.env);
// DATABASE_URL: a PostgreSQL server; unset: embedded PGlite in TENANTS_DATA_DIR. Migrated here.
const database = await openTenantsDatabase(readTenantsDatabaseConfig(process.env));
const config = readTenantsConfig(process.env);
const stores = (clock: Clock) => createPostgresTenantsStores(database, clock, config, { queryTimeoutMs: database.queryTimeoutMs });
const app = await createApp(createTenantsModule(config, { stores }), {
  accessLog: { fields: (ctx) => ({ keyId: auth.getCurrentApiKey(ctx)?.id }) },
  // Readiness: the database answers, and an identity provider's keys (AUTH_JWKS_URL) were had.
  health: { checks: [postgresHealthCheck(database), ...(config.identityProvider === undefined ? [] : [auth.JWKS_HEALTH_CHECK])] },
  instrumentation: openTelemetry(),
});
serveTenantsOpenApi(app);
app.logger.info({ database: database.description }, 'tenants: database ready');
await runApp(app, 'tenants', { onStop: telemetry.stop });
