import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineModule, defineProvider, isTesseraError } from '../index.js';
import { defineAuthModule } from '../auth/index.js';
import { PostgresCredentialStore, PostgresRefreshTokenStore } from '../auth/postgres/index.js';
import { createQueryRunner } from './run-query.js';
import { migrate } from './migrate.js';
import { postgresHealthCheck } from './postgres-health-check.js';
import { postgresPubSub } from './postgres-pub-sub.js';
import { SQL_CLIENT, type SqlClient } from './sql-client.js';
import { StoreUnavailableError } from './store-unavailable-error.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const Claims = z.object({ sub: z.string() });

/** The auth module as docs/auth.md wires it, over whatever is given as the SQL client. */
function appOver(client: unknown) {
  const auth = defineAuthModule(Claims);
  const DatabaseModule = defineModule({ name: 'DatabaseModule', providers: [{ provide: SQL_CLIENT, useValue: client as SqlClient }], exports: [SQL_CLIENT] });
  return defineModule({
    name: 'AppModule',
    imports: [
      auth.AuthModule.forRoot({
        secret: SECRET,
        issuing: {
          imports: [DatabaseModule],
          credentialStore: defineProvider(PostgresCredentialStore<z.output<typeof Claims>>, [SQL_CLIENT]),
          refreshTokenStore: defineProvider(PostgresRefreshTokenStore, [SQL_CLIENT]),
        },
      }),
    ],
  });
}

describe('a store given something that is not a SqlClient', () => {
  it('fails the boot naming the store class and the missing query method, not as an outage', async () => {
    const error = await createApp(appOver({ connect: () => undefined })).catch((e: unknown) => e);
    expect(error, 'a wiring mistake is not a 503').not.toBeInstanceOf(StoreUnavailableError);
    expect(isTesseraError(error) && error.code).toBe('DI_PROVIDER_BUILD');
    expect((error as Error).message).toMatch(/^PostgresRefreshTokenStore \(provided as RefreshTokenStore in AuthModule\) could not be built: /);
    expect((error as Error).message).toMatch(/not a SqlClient: an object has no query\(text, params\) method/);
    expect((error as Error).cause, 'the TypeError is kept as the cause').toBeInstanceOf(TypeError);
  });

  it('names the pool by its class only, never its fields (a pool\u2019s config holds its password)', async () => {
    class Pool {
      readonly options = { connectionString: 'postgres://app:hunter2-secret@db/app' };
    }
    const message = ((await createApp(appOver(new Pool())).catch((e: unknown) => e)) as Error).message;
    expect(message).toMatch(/a Pool has no query/);
    expect(message, 'the password must not be echoed').not.toMatch(/hunter2/);
  });

  it('refuses it in the health check, the pub/sub and migrate too, where it would read as a database that is down', async () => {
    expect(() => postgresHealthCheck({} as never)).toThrow(/^postgresHealthCheck was given a SQL client that is not a SqlClient/);
    expect(() => postgresPubSub({ publisher: {} as never, connect: async () => ({}) as never })).toThrow(/^postgresPubSub's publisher was given a SQL client that is not a SqlClient/);
    await expect(migrate({} as never)).rejects.toThrow(/^migrate was given a SQL client that is not a SqlClient/);
  });

  it('refuses undefined (a provider that was never given a value) at construction', () => {
    expect(() => createQueryRunner(undefined as never, 'idempotency')).toThrow(/The idempotency store was given a SQL client that is not a SqlClient: undefined has no query/);
  });
});

describe('a client that breaks the SqlClient contract while running', () => {
  /** Options that record which operations were reported as store failures. */
  function recording() {
    const reported: string[] = [];
    return { reported, options: { onError: (f: { operation: string }) => reported.push(f.operation) } };
  }

  it('a query() that throws is a TypeError (500), not a 503, and is not reported as a store failure', async () => {
    const { reported, options } = recording();
    const client = { query: () => { throw new TypeError('Client was passed a null or undefined query'); } } as unknown as SqlClient;
    const run = createQueryRunner(client, 'refresh-token', options);
    const error = await run('find', 'SELECT 1', []).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(StoreUnavailableError);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/refresh-token store's SQL client is not a SqlClient \(find\): query\(\) threw/);
    expect(reported, 'no outage reported').toEqual([]);
  });

  it('a query() that answers no promise is a TypeError', async () => {
    const { options } = recording();
    const run = createQueryRunner({ query: () => ({ rows: [] }) } as unknown as SqlClient, 'api-key', options);
    await expect(run('find', 'SELECT 1', [])).rejects.toThrow(/query\(\) answered object instead of a promise/);
  });

  it('a rejection stays an outage, even a fetch-based driver\u2019s TypeError', async () => {
    const { reported, options } = recording();
    const run = createQueryRunner({ query: () => Promise.reject(new TypeError('fetch failed')) }, 'api-key', options);
    await expect(run('find', 'SELECT 1', [])).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(reported).toEqual(['find']);
  });
});
