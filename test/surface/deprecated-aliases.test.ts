import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import * as auth from '../../lib/auth/index.js';
import * as authPostgres from '../../lib/auth/postgres/index.js';
import * as fetchEntry from '../../lib/fetch.js';
import * as core from '../../lib/index.js';
import { createApp, defineController, defineModule, ws } from '../../lib/index.js';
import * as middleware from '../../lib/middleware/index.js';
import * as postgres from '../../lib/postgres/index.js';
import * as testing from '../../lib/testing/index.js';
import * as testingNode from '../../lib/testing/index-node.js';

// Names moved or renamed in 0.2 stay importable from where 0.1 had them until 0.3 (issue 47,
// CHANGELOG.md): each old name must be the very binding the new one is, so that an app mixing
// old and new imports shares one token, one class and one function.
const UPGRADE_HEADERS = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==' };

describe('deprecated aliases kept for one minor version', () => {
  for (const name of ['SQL_CLIENT', 'migrate', 'postgresHealthCheck', 'MIGRATIONS', 'DEFAULT_QUERY_TIMEOUT_MS', 'DEFAULT_SETTLE_TIMEOUT_MS', 'createQueryRunner', 'postgresPubSub', 'StoreUnavailableError', 'PostgresRateLimitCounter'] as const) {
    it(`tessera-http/auth/postgres's ${name} is tessera-http/postgres's ${name}`, () => {
      expect(authPostgres[name], `${name} under its old import`).toBe(postgres[name]);
    });
  }

  for (const [old, now] of [['bunWebSockets', 'bunWebSocketUpgrader'], ['denoWebSockets', 'denoWebSocketUpgrader'], ['workersWebSockets', 'workersWebSocketUpgrader']] as const) {
    it(`tessera-http/fetch's ${old} is ${now}`, () => {
      expect(fetchEntry[old], `${old} under its old name`).toBe(fetchEntry[now]);
    });
  }

  for (const name of ['createClientAddressReader', 'createTrustedProxyMatcher', 'parseAllowedCidrs', 'InvalidCidrError', 'CidrHostBitsError'] as const) {
    it(`tessera-http/auth's ${name} is tessera-http's ${name}`, () => {
      expect(auth[name], `${name} under its old import`).toBe(core[name]);
    });
  }

  for (const name of ['getCookie', 'getCookies', 'setCookie', 'deleteCookie', 'serializeCookie'] as const) {
    it(`tessera-http/middleware's ${name} is tessera-http's ${name}`, () => {
      expect(middleware[name], `${name} under its old import`).toBe(core[name]);
    });
  }

  // Test scaffolding moved from tessera-http/auth to tessera-http/testing (issue 47).
  it("tessera-http/auth's BasicInMemoryRefreshTokenStore is tessera-http/testing's", () => {
    expect(testing.BasicInMemoryRefreshTokenStore, 'the testing entry exports the store').toBeTypeOf('function');
    expect(testingNode.BasicInMemoryRefreshTokenStore, 'the node condition of the testing entry exports the same class').toBe(testing.BasicInMemoryRefreshTokenStore);
    expect(auth.BasicInMemoryRefreshTokenStore, 'the class under its old import').toBe(testing.BasicInMemoryRefreshTokenStore);
    expect(new auth.InMemoryRefreshTokenStore(), 'the full in-memory store still extends it').toBeInstanceOf(testing.BasicInMemoryRefreshTokenStore);
  });

  // One word for ending a session, SPEC's: revoke (issue 47/48).
  it("tessera-http/auth's INVALIDATION_TOPIC is REVOCATION_TOPIC", () => {
    expect(auth.INVALIDATION_TOPIC, 'the topic under its old name').toBe(auth.REVOCATION_TOPIC);
  });

  it("defineAuthModule's CREDENTIAL_INVALIDATION is CREDENTIAL_REVOCATION", () => {
    const definitions = auth.defineAuthModule(z.object({ sub: z.string() }));
    expect(definitions.CREDENTIAL_INVALIDATION, 'the token under its old name').toBe(definitions.CREDENTIAL_REVOCATION);
  });

  it("the token-issuing service's endSession and endOtherSessions do what revokeSession and revokeOtherSessions do", async () => {
    const calls: string[] = [];
    const spied = new auth.TokenIssuingService<unknown>({ claimsSchema: z.unknown() as never, credentialStore: {} as never, refreshTokenStore: {} as never, accessTokens: {} as never });
    spied.revokeSession = async (s, id) => (calls.push(`revokeSession ${s} ${id}`), true);
    spied.revokeOtherSessions = async (s, id) => void calls.push(`revokeOtherSessions ${s} ${id}`);
    expect(await spied.endSession('u_1', 'sid_1')).toBe(true);
    await spied.endOtherSessions('u_1', 'sid_2');
    expect(calls).toEqual(['revokeSession u_1 sid_1', 'revokeOtherSessions u_1 sid_2']);
  });

  it("toFetchHandler's old option webSockets completes an upgrade as webSocketUpgrader does", async () => {
    const controller = defineController({ name: 'Sockets', routes: () => ({ echo: ws('/echo', {}, { message: (conn, data) => void conn.send(data) }) }) });
    const app = await createApp(defineModule({ name: 'Sockets', controllers: [controller] }));
    const completed = new Response('completed by the upgrader');
    const handler = fetchEntry.toFetchHandler(app, { webSockets: { upgrade: () => completed } });
    const response = await handler(new Request('http://localhost/echo', { headers: UPGRADE_HEADERS }));
    expect(response, 'the upgrader given as webSockets answered (without it: 501)').toBe(completed);
    await app.close();
  });
});

// Renamed types (issue 47, "options as data"): an old type name must stay the very type the new
// one is, so a value typed with either is assignable both ways. Checked by the type-check
// (`npx tsc -p tsconfig.json --noEmit`); the `it` keeps the check in this file's report.
describe('deprecated type aliases kept for one minor version', () => {
  it("tessera-http/auth's AccountSettings is AccountLifecycleOptions", () => {
    type Claims = { readonly sub: string };
    expectTypeOf<auth.AccountSettings<Claims>>().toEqualTypeOf<auth.AccountLifecycleOptions<Claims>>();
  });

  it("AccountServiceOptions and AccountOptions are their parts composed, with every 0.1 field", () => {
    type Claims = { readonly sub: string };
    expectTypeOf<auth.AccountServiceOptions<Claims>>().toEqualTypeOf<auth.AccountLifecycleOptions<Claims> & auth.AccountServiceDeps<Claims>>();
    expectTypeOf<auth.AccountOptions<Claims>>().toEqualTypeOf<auth.AccountLifecycleOptions<Claims> & auth.AccountModuleParts<Claims>>();
    expectTypeOf<auth.IssuingOptions<Claims>>().toEqualTypeOf<auth.TokenLifetimeOptions & auth.IssuingModuleParts<Claims>>();
  });

  it('AuthModuleOptions is its parts composed: own tokens, accepted tokens, the module\u2019s switches and one key per feature', () => {
    type Claims = { readonly sub: string };
    type Parts = Omit<auth.OwnTokenOptions, 'algorithm'> & Partial<Pick<auth.OwnTokenOptions, 'algorithm'>> & auth.TokenAcceptanceOptions & auth.AuthModuleScopeOptions & auth.AuthFeatureOptions<Claims>;
    expectTypeOf<auth.AuthModuleOptions<Claims>>().toEqualTypeOf<Parts>();
    // An app's own interface may still extend it (a type alias now, no longer merged).
    interface AppAuthOptions extends auth.AuthModuleOptions<Claims> {
      readonly tenant: string;
    }
    expectTypeOf<AppAuthOptions['secret']>().toEqualTypeOf<string>();
    // Every 0.1 field keeps its name (an app's options object compiles unchanged).
    expectTypeOf<keyof auth.AuthModuleOptions<Claims>>().toEqualTypeOf<
      'secret' | 'algorithm' | 'issuer' | 'audience' | 'trustedIssuers' | 'clockToleranceSeconds' | 'requireAccessTokenType' | 'global' | 'protectAllRoutes' | 'issuing' | 'apiKeys' | 'accounts' | 'browser' | 'outsideSignIn' | 'signInThrottle' | 'routes' | 'recentAuthSeconds' | 'secondFactors' | 'clock'
    >();
  });
});
