// The job contract on the three engines: in memory always; PostgreSQL through pg-boss on a real
// server when TEST_DATABASE_URL is set (and Node is 22.12 or later, pg-boss 12's floor); Redis
// through BullMQ when TEST_REDIS_URL is set. Without them the suites are reported as skipped.
import { afterAll, beforeAll, describe } from 'vitest';
import { bullmqJobEngine, memoryJobEngine, pgBossJobEngine } from '../../lib/jobs/index.js';
import { createTestDatabase, TEST_DATABASE_URL, type TestDatabase } from '../postgres/support/test-database.js';
import { describeJobEngineContract } from './job-engine-contract.js';

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const pgBossRuns = major > 22 || (major === 22 && minor >= 12);

describe('in memory', () => {
  const engine = memoryJobEngine();
  describeJobEngineContract('memory', () => ({ instance: () => engine, pickupMs: 50 }));
});

describe.skipIf(TEST_DATABASE_URL === undefined || !pgBossRuns)(`PostgreSQL through pg-boss (TEST_DATABASE_URL, Node >= 22.12; this is ${process.versions.node})`, () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
  }, 30_000);
  afterAll(async () => {
    await database?.drop();
  });
  describeJobEngineContract('postgres', () => ({
    instance: () => pgBossJobEngine({ connectionString: database.url, schema: 'jobs', pollingIntervalSeconds: 0.5, maxConnections: 4 }),
    pickupMs: 1_000,
  }));
});

const TEST_REDIS_URL = process.env.TEST_REDIS_URL || undefined;

describe.skipIf(TEST_REDIS_URL === undefined)('Redis through BullMQ (TEST_REDIS_URL)', () => {
  // A prefix of its own: other files share this Redis.
  const prefix = `jobs-contract-${Date.now().toString(36)}`;
  describeJobEngineContract('redis', () => ({
    instance: () => bullmqJobEngine({ url: TEST_REDIS_URL as string, prefix }),
    pickupMs: 500,
  }));
});
