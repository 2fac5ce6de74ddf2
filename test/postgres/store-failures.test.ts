// What a PostgreSQL store does when the database cannot answer: a bounded wait, then a 503
// (`StoreUnavailableError`) whose message and cause carry no parameters or row values; and, end
// to end, the tenants app answering 503 problem+json for sign-in, refresh and API keys when its
// database refuses connections. No server is needed: a closed port refuses like a stopped one.
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createApp, isHttpException, ServiceUnavailableException, silentLogger } from '../../lib/index.js';
import { PostgresApiKeyStore, PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { StoreUnavailableError } from '../../lib/postgres/index.js';
import type { SqlClient, StoreFailure } from '../../lib/postgres/index.js';
import { readTenantsConfig } from '../../examples/tenants/config.js';
import { DEMO_PASSWORD } from '../../examples/tenants/demo-accounts.js';
import { createPostgresTenantsStores } from '../../examples/tenants/postgres/tenants-stores.js';
import { createTenantsModule } from '../../examples/tenants/tenants-module.js';
import { send } from '../http-helpers.js';
import { createMigratedPGlite } from './support/pglite.js';
import { createTestPool } from './support/test-database.js';

const SECRET_HASH = 'f'.repeat(64);

/** A port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('PostgreSQL stores: driver failures', () => {
  it('a query that never answers fails after queryTimeoutMs as a 503 StoreUnavailableError', async () => {
    const hanging: SqlClient = { query: () => new Promise(() => undefined) };
    const failures: StoreFailure[] = [];
    const store = new PostgresRefreshTokenStore(hanging, { queryTimeoutMs: 50, onError: (f) => failures.push(f) });
    const started = performance.now();
    const error = await store.find(SECRET_HASH).catch((e: unknown) => e);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toBeInstanceOf(StoreUnavailableError);
    expect(error).toBeInstanceOf(ServiceUnavailableException);
    expect(isHttpException(error) && error.status).toBe(503);
    expect(failures).toEqual([{ store: 'refresh-token', operation: 'find', code: 'TIMEOUT', message: 'query timed out after 50 ms' }]);
  });

  it('keeps parameters and server details out of the message, the cause and the report', async () => {
    const leaky: SqlClient = {
      query: async (_text, params) => {
        throw Object.assign(new Error('connection terminated'), { code: '57P01', detail: `Key (token_hash)=(${SECRET_HASH})`, params });
      },
    };
    const failures: StoreFailure[] = [];
    const store = new PostgresRefreshTokenStore(leaky, { onError: (f) => failures.push(f) });
    const error = (await store.revoke(SECRET_HASH).catch((e: unknown) => e)) as StoreUnavailableError;
    expect(error.message).toBe('The refresh-token store is unavailable');
    const everything = JSON.stringify([error.message, String(error.cause), Object.entries(error.cause as object), failures]);
    expect(everything).not.toContain(SECRET_HASH);
    expect((error.cause as { code?: string }).code).toBe('57P01');
  });

  it('an API key store that cannot answer rejects (the guard maps that to 503); touch failures reject too, and are ignored by the guard', async () => {
    const refused: SqlClient = { query: async () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })) };
    const store = new PostgresApiKeyStore(refused, { onError: () => undefined });
    await expect(store.find('0'.repeat(24))).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(store.touch('0'.repeat(24), new Date())).rejects.toBeInstanceOf(StoreUnavailableError);
  });
});

async function timed<T extends object>(call: () => Promise<T>): Promise<T & { ms: number }> {
  const started = performance.now();
  const result = await call();
  return { ...result, ms: performance.now() - started };
}

/** Sends every query to `target`, which the test swaps to simulate the database going away. */
class SwitchableClient implements SqlClient {
  constructor(public target: SqlClient) {}
  query<Row>(text: string, params?: unknown[]) {
    return this.target.query<Row>(text, params);
  }
}

describe('tenants app when its database starts refusing connections', () => {
  it('answers 503 problem+json for sign-in, refresh, sign-out and API keys, quickly, never 401 or 200; then recovers', async () => {
    const lite = await createMigratedPGlite();
    const refusing = createTestPool(`postgres://postgres@127.0.0.1:${await closedPort()}/postgres`, 10, { connectionTimeoutMillis: 1_000 });
    const client = new SwitchableClient(lite);
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
    const app = await createApp(createTenantsModule(config, { stores: (clock) => createPostgresTenantsStores(client, clock, config, { queryTimeoutMs: 2_000 }) }), { logger: silentLogger });
    const quiet = console.error;
    try {
      const signIn = () => send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
      const pair = (await signIn()).json as { accessToken: string; refreshToken: string };
      const bearer = { authorization: `Bearer ${pair.accessToken}` };
      const { key } = (await send(app, 'POST', '/tenants/acme/api-keys', { headers: bearer, json: { name: 'ci', scopes: ['posts:read'] } })).json as { key: string };
      const readWithKey = () => send(app, 'GET', '/tenants/acme/posts', { headers: { 'x-api-key': key } });
      expect((await readWithKey()).status).toBe(200);

      console.error = () => undefined;
      client.target = refusing;
      const answers = {
        apiKey: await timed(readWithKey),
        signIn: await timed(signIn),
        refresh: await timed(() => send(app, 'POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } })),
        signOut: await timed(() => send(app, 'POST', '/auth/sign-out', { json: { refreshToken: pair.refreshToken } })),
      };
      console.info(`[outage, in-process] ms: ${Object.entries(answers).map(([n, a]) => `${n} ${a.ms.toFixed(0)}`).join(", ")}`);
      for (const [name, answer] of Object.entries(answers)) {
        expect([name, answer.status, answer.headers.get('content-type')]).toEqual([name, 503, 'application/problem+json']);
        expect(answer.ms).toBeLessThan(5_000);
        expect(answer.text).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|postgres/);
      }
      // Tokens need no store: a request with a valid access token is still served.
      expect((await send(app, 'GET', '/me', { headers: bearer })).status).toBe(200);

      client.target = lite;
      console.error = quiet;
      expect((await readWithKey()).status).toBe(200);
      expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: pair.refreshToken } })).status).toBe(200);
    } finally {
      console.error = quiet;
      await app.close();
      await refusing.end();
    }
  }, 30_000);
});
