// Outside sign-in across instances: the flow is started on one instance and its callback answered
// by another, both on one PostgreSQL database (PGlite here; a real server with TEST_DATABASE_URL),
// with a real OpenID provider (oidc-provider) on loopback. The state lives in the database, not in
// a process or a cookie, and is taken once whichever instance answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlClient } from '../../lib/postgres/index.js';
import { PostgresIdentityStore, PostgresSignInFlowStore } from '../../lib/auth/postgres/index.js';
import { signInAtProvider, startOidcProvider, type TestOidcProvider } from '../../lib/auth/federation/oidc-provider.test-helper.js';
import { APP_ORIGIN, BOB, FLOW_BINDING_COOKIE, outsideTestApp } from '../../lib/auth/federation/outside-sign-in.test-helper.js';
import { useMigratedPGlite } from './support/pglite.js';
import { TEST_DATABASE_URL, useMigratedTestDatabase } from './support/test-database.js';

let op: TestOidcProvider;
beforeAll(async () => {
  op = await startOidcProvider({ redirectUris: [`${APP_ORIGIN}/auth/oidc/oidc/callback`], accounts: [{ sub: 'op-bob', email: BOB.identifier, email_verified: true }] });
});
afterAll(async () => {
  await op.close();
});

function describeInstances(name: string, client: () => SqlClient): void {
  describe(`outside sign-in on two instances (${name})`, () => {
    async function twoInstances() {
      const shared = { flows: new PostgresSignInFlowStore(client()), identities: new PostgresIdentityStore(client()) };
      const provider = { name: 'oidc', issuer: op.issuer, clientId: op.clientId, clientSecret: op.clientSecret, linkVerifiedEmail: true };
      return [await outsideTestApp(provider, shared), await outsideTestApp(provider, shared)] as const;
    }

    it('completes on instance B a sign-in started on instance A, and refuses its replay on A', async () => {
      const [a, b] = await twoInstances();
      const start = await a.browser('GET', '/auth/oidc/oidc');
      op.loginAs('op-bob');
      const back = await signInAtProvider(start.headers.get('location') as string, APP_ORIGIN);
      if (back.kind !== 'redirect') throw new Error('expected a redirect');
      // The same browser: its binding cookie goes to whichever instance answers.
      b.cookies.set(FLOW_BINDING_COOKIE, a.cookies.get(FLOW_BINDING_COOKIE) as string);
      const done = await b.browser('GET', back.url.pathname + back.url.search);
      expect(done.status, await done.clone().text()).toBe(200);
      expect(await (await b.browser('GET', '/me')).json()).toEqual({ sub: BOB.subject });
      const replay = await a.browser('GET', back.url.pathname + back.url.search);
      expect(replay.status, 'the callback was accepted twice across instances').toBe(400);
    });
  });
}

const lite = useMigratedPGlite();
describeInstances('PGlite', () => lite.db);

describe.skipIf(TEST_DATABASE_URL === undefined)('real PostgreSQL server (TEST_DATABASE_URL)', () => {
  const db = useMigratedTestDatabase(5);
  describeInstances('server', () => db.pool);
});
