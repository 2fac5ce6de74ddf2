// The tenants scenarios (issue 5) for Tessera: the examples/tenants app as it ships, with its
// in-memory stores (no database), configured from the environment the harness sets
// (API_KEY_CACHE_SECONDS, API_KEY_RATE_LIMIT). Once listening, the process provisions its own
// credentials over HTTP, as a client would (sign in as the demo owner, create an API key with
// scope posts:read, create one post), and prints them on one `credentials {json}` line before
// `ready`: the state is in memory, so every fresh server process needs its own, and no key or
// token is ever written into the repository.
import { request } from 'node:http';
import { readTenantsConfig, type TenantsConfig } from '../../examples/tenants/config.js';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { createTenantsModule } from '../../examples/tenants/tenants-module.js';
import type { ModuleDefinition } from '../../lib/index.js';
import { JWT_SECRET } from './shared.mjs';

/** The bench's public HMAC secret unless AUTH_SECRET is set (avoids the development-secret warning). */
export const tenantsConfig: TenantsConfig = readTenantsConfig({ ...process.env, AUTH_SECRET: process.env.AUTH_SECRET || JWT_SECRET });

/**
 * The tenants module with the counter the scenario asks for (BENCH_COUNTER): the example's
 * in-memory window (`memory`), `RedisRateLimitCounter` on REDIS_URL, or `PostgresRateLimitCounter`
 * on DATABASE_URL (its table migrated first). The other stores stay in memory.
 */
export async function tenantsModule(): Promise<ModuleDefinition> {
  const counter = process.env.BENCH_COUNTER ?? 'memory';
  const options = { limit: tenantsConfig.apiKeyRateLimit, windowMs: tenantsConfig.apiKeyRateWindowMs, name: `bench-${process.pid}` };
  if (counter === 'redis') {
    const [{ Redis }, { RedisRateLimitCounter }] = await Promise.all([import('ioredis'), import('../../lib/redis/index.js')]);
    const redis = new Redis(process.env.REDIS_URL as string);
    return createTenantsModule(tenantsConfig, { rateLimitCounter: (clock) => new RedisRateLimitCounter(redis, { ...options, clock }) });
  }
  if (counter === 'postgres') {
    const [{ default: pg }, { migrate, PostgresRateLimitCounter }] = await Promise.all([import('pg'), import('../../lib/postgres/index.js')]);
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
    await migrate(pool);
    return createTenantsModule(tenantsConfig, { rateLimitCounter: (clock) => new PostgresRateLimitCounter(pool, { ...options, clock }) });
  }
  return createTenantsModule(tenantsConfig);
}

function call(port: number, host: string, method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; json: unknown }> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const allHeaders = payload === undefined ? headers : { ...headers, 'content-type': 'application/json' };
  return new Promise((resolve, reject) => {
    const req = request({ host, port, method, path, headers: allHeaders, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        try {
          resolve({ status: res.statusCode ?? 0, json: text === '' ? undefined : JSON.parse(text) });
        } catch {
          reject(new Error(`${method} ${path}: ${res.statusCode} ${text.slice(0, 200)}`));
        }
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

async function expect<T>(what: string, status: number, pending: Promise<{ status: number; json: unknown }>): Promise<T> {
  const res = await pending;
  if (res.status !== status) throw new Error(`${what}: status ${res.status}, expected ${status}: ${JSON.stringify(res.json)}`);
  return res.json as T;
}

/** Signs in as the demo owner, creates a read-only key and one post, prints `credentials {json}`. */
export async function provisionTenants(port: number, host: string): Promise<void> {
  const signIn = await expect<{ accessToken: string }>('sign-in', 200, call(port, host, 'POST', '/auth/sign-in', {}, { identifier: 'alice@acme.test', password: DEMO_PASSWORD }));
  const bearer = { authorization: `Bearer ${signIn.accessToken}` };
  const created = await expect<{ id: string; key: string }>('create key', 201, call(port, host, 'POST', '/tenants/acme/api-keys', bearer, { name: 'bench', scopes: ['posts:read'] }));
  await expect('create post', 201, call(port, host, 'POST', '/tenants/acme/posts', bearer, { title: 'Bench post', body: 'Read by the tenants scenarios.' }));
  const { apiKeyCacheSeconds, apiKeyRateLimit, apiKeyRateWindowMs } = tenantsConfig;
  const line = { accessToken: signIn.accessToken, apiKey: created.key, config: { apiKeyCacheSeconds, apiKeyRateLimit, apiKeyRateWindowMs } };
  process.stdout.write(`credentials ${JSON.stringify(line)}\n`);
}
