import { createApp, type Clock } from '../../lib/index.js';
import { postgresHealthCheck } from '../../lib/auth/postgres/index.js';
import { runApp } from '../shared/run-app.js';
import { readTenantsConfig } from './config.js';
import { auth } from './claims.js';
import { serveTenantsOpenApi } from './openapi.js';
import { createTenantsModule } from './tenants-module.js';
import { openTenantsDatabase, readTenantsDatabaseConfig } from './postgres/tenants-database.js';
import { createPostgresTenantsStores } from './postgres/tenants-stores.js';

// DATABASE_URL: a PostgreSQL server; unset: embedded PGlite in TENANTS_DATA_DIR. Migrated here.
const database = await openTenantsDatabase(readTenantsDatabaseConfig(process.env));
console.log(`tenants: data in ${database.description}`);
const config = readTenantsConfig(process.env);
const stores = (clock: Clock) => createPostgresTenantsStores(database, clock, config, { queryTimeoutMs: database.queryTimeoutMs });
const app = await createApp(createTenantsModule(config, { stores }), {
  accessLog: { fields: (ctx) => ({ keyId: auth.getCurrentApiKey(ctx)?.id }) },
  health: { checks: [postgresHealthCheck(database)] },
});
serveTenantsOpenApi(app);
await runApp(app, 'tenants');
