import { createApp, jsonLogger, pubSubHealthCheck, type Clock } from '../../lib/index.js';
import { RedisRateLimitCounter, redisHealthCheck } from '../../lib/redis/index.js';
import { pubsubFromEnv } from '../shared/pubsub-from-env.js';
import { postgresHealthCheck } from '../../lib/postgres/index.js';
import { openTelemetry } from '../../lib/otel/index.js';
import { runApp } from '../shared/run-app.js';
import { startTelemetry } from '../shared/telemetry.js';
import { readTenantsConfig } from './config.js';
import { auth } from './claims.js';
import { serveTenantsOpenApi } from './openapi.js';
import { serveTenantsAccountPages } from './account-pages.js';
import { createTenantsModule } from './tenants-module.js';
import { tenantsSecurityHeaders } from './security-headers.js';
import { openTenantsDatabase, readTenantsDatabaseConfig } from './postgres/tenants-database.js';
import { createPostgresTenantsStores } from './postgres/tenants-stores.js';
import { memoryJobEngine, pgBossJobEngine } from '../../lib/jobs/index.js';

// First: a wrong environment stops the start here, every wrong variable named, before anything connects.
const config = readTenantsConfig(process.env);
const telemetry = await startTelemetry(process.env);
// DATABASE_URL: a PostgreSQL server; unset: embedded PGlite in TENANTS_DATA_DIR. Migrated here.
const database = await openTenantsDatabase(readTenantsDatabaseConfig(process.env));
const stores = (clock: Clock) => createPostgresTenantsStores(database, clock, config, { queryTimeoutMs: database.queryTimeoutMs });
// REDIS_URL: rate limits counted in Redis and pushes carried by it; else DATABASE_URL's LISTEN/NOTIFY
// carries the pushes; with neither, one embedded instance as before.
// With DATABASE_URL, NOTIFY goes through the stores' pool (PGlite, without it, is never a bus).
const bus = await pubsubFromEnv(process.env, jsonLogger(), database);
const redis = bus?.redis;
const rateLimitCounter = redis === undefined ? undefined : (clock: Clock) => new RedisRateLimitCounter(redis, { limit: config.apiKeyRateLimit, windowMs: config.apiKeyRateWindowMs, name: 'api-keys', clock, logger: jsonLogger() });
// The creates' Idempotency-Key answers live in the database with the posts they protect, even
// with REDIS_URL: kept in Redis, a Redis outage would refuse every keyed write (503) although the
// posts' own database is up (measured by test/faults: 86-90 of ~90 writes per Redis fault).
// Failed sign-ins are counted in the database with the accounts they protect, Redis or not: in
// Redis, a Redis outage would refuse every sign-in (503) although the accounts' database is up.
// Jobs (account mails through SMTP_URL, the purge on PURGE_CRON): with DATABASE_URL in the database
// through pg-boss, shared by every instance; else (or on a Node older than pg-boss's 22.12) in this process.
const [nodeMajor = 0, nodeMinor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = nodeMajor > 22 || (nodeMajor === 22 && nodeMinor >= 12);
const jobs = process.env.DATABASE_URL && pgBossRuns ? pgBossJobEngine({ connectionString: process.env.DATABASE_URL }) : memoryJobEngine();
const app = await createApp(createTenantsModule(config, { stores, jobs, ...(rateLimitCounter === undefined ? {} : { rateLimitCounter }) }), {
  ...(bus === undefined ? {} : { pubsub: bus.pubsub }),
  // The one proxy rule: ctx.clientAddress (API keys' allowedCidrs, sessions, sign-in throttling)
  // is the address the TRUSTED_PROXY_HOPS proxies saw.
  clientAddress: { trustedProxyHops: config.trustedProxyHops },
  accessLog: { fields: (ctx) => ({ keyId: auth.getCurrentApiKey(ctx)?.id }) },
  // nosniff, framing, referrer, COOP/CORP, an API's CSP (the account pages set their own), HSTS over https.
  middleware: [tenantsSecurityHeaders(config)],
  // Readiness: the database answers, Redis answers and the bus listens (revocations and pushes
  // from other instances reach this one), and an identity provider's keys (AUTH_JWKS_URL) were had.
  health: {
    checks: [
      postgresHealthCheck(database),
      ...(redis === undefined ? [] : [redisHealthCheck(redis)]),
      ...(bus === undefined ? [] : [pubSubHealthCheck(bus.pubsub)]),
      ...(config.identityProvider === undefined ? [] : [auth.JWKS_HEALTH_CHECK]),
    ],
  },
  instrumentation: openTelemetry(),
});
serveTenantsOpenApi(app);
// The pages the links in account mails open (APP_URL/verify-email?token=...).
serveTenantsAccountPages(app);
app.logger.info({ database: database.description }, 'tenants: database ready');
app.logger.info({ jobs: jobs.kind, pubsub: bus?.engine ?? 'in-process', rateLimits: redis === undefined ? 'database' : 'redis', idempotency: 'database' }, 'tenants: engines ready');
await runApp(app, 'tenants', {
  onStop: async () => {
    await bus?.close();
    await telemetry.stop();
  },
});
