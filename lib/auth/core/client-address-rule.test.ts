// Auth reads the app's one client-address rule (ctx.clientAddress); its deprecated `clientIp`
// options still work alone, and are refused beside the app's rule (two rules).
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestLogger } from '../../../test/support/test-logger.js';
import { toFetchHandler } from '../../fetch.js';
import { createApp, defineController, defineModule, get, type App, type AppOptions, type ClientAddressOptions } from '../../index.js';
import { defineAuthModule, generateApiKey, InMemoryApiKeyStore, InMemoryCredentialStore, InMemoryRefreshTokenStore, type AuthModuleOptions } from '../index.js';

const SECRET = 'client-address-rule-test-secret-0123456789';
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
const STORE = new InMemoryApiKeyStore();
const restricted = generateApiKey();
STORE.add({ id: restricted.id, secretHash: restricted.secretHash, claims: { sub: 'key', roles: [] }, scopes: [], allowedCidrs: ['203.0.113.0/24'] });
class SharedStore extends InMemoryApiKeyStore {
  override find(id: string) {
    return STORE.find(id);
  }
}

function authModule(options: Partial<AuthModuleOptions<z.infer<typeof Claims>>> = {}) {
  const auth = defineAuthModule(Claims);
  const controller = defineController({ name: 'Posts', routes: () => ({ read: get('/posts', () => 'posts') }) });
  return defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET, protectAllRoutes: true, apiKeys: { store: SharedStore }, ...options })], controllers: [controller] });
}

async function keyStatus(app: App, peer: string, forwardedFor: string): Promise<number> {
  const request = new Request('http://localhost/posts', { headers: { 'x-api-key': restricted.key, 'x-forwarded-for': forwardedFor } });
  return (await toFetchHandler(app)(request, { remoteAddr: { hostname: peer } })).status;
}

const BEHIND_ONE_PROXY: ClientAddressOptions = { trustedProxyHops: 1, isTrustedProxy: ['10.0.0.0/8'] };

describe("API keys' allowedCidrs read the app's rule (ctx.clientAddress)", () => {
  it('admits a key from inside its networks through the trusted proxy', async () => {
    const app = await createApp(authModule(), { clientAddress: BEHIND_ONE_PROXY });
    expect(await keyStatus(app, '10.0.0.5', '203.0.113.9')).toBe(200);
  });

  it('refuses a client bypassing the proxy that writes an allowed X-Forwarded-For itself', async () => {
    const app = await createApp(authModule(), { clientAddress: BEHIND_ONE_PROXY });
    expect(await keyStatus(app, '198.51.100.4', '203.0.113.9')).toBe(401);
  });

  it('without the rule, ignores X-Forwarded-For: every client looks like the proxy', async () => {
    const app = await createApp(authModule());
    expect(await keyStatus(app, '10.0.0.5', '203.0.113.9')).toBe(401);
  });
});

describe('the deprecated apiKeys.clientIp and browser.clientIp', () => {
  const withIssuing = (extra: Partial<AuthModuleOptions<z.infer<typeof Claims>>>) => authModule({ issuing: { credentialStore: InMemoryCredentialStore, refreshTokenStore: InMemoryRefreshTokenStore }, ...extra });

  it('still decide the address alone, and the boot warns that they moved', async () => {
    const { logger, log } = createTestLogger();
    const app = await createApp(authModule({ apiKeys: { store: SharedStore, clientIp: BEHIND_ONE_PROXY } }), { logger });
    expect(await keyStatus(app, '10.0.0.5', '203.0.113.9'), 'the alias reads X-Forwarded-For as before').toBe(200);
    expect(log.warnings.map((w) => w.message)).toEqual(['apiKeys.clientIp is deprecated (removed in 0.3): give the same rule to createApp(root, { clientAddress })']);
  });

  it('fail the boot beside the app rule, naming the option that replaces them', async () => {
    const options: AppOptions = { clientAddress: BEHIND_ONE_PROXY };
    await expect(createApp(authModule({ apiKeys: { store: SharedStore, clientIp: BEHIND_ONE_PROXY } }), options)).rejects.toThrow(/apiKeys\.clientIp .*createApp\(root, \{ clientAddress \}\)/);
  });

  it('fail the boot when the two aliases are two different rules', async () => {
    const module = withIssuing({ apiKeys: { store: SharedStore, clientIp: { trustedProxyHops: 1 } }, browser: { clientIp: { trustedProxyHops: 2 } } });
    await expect(createApp(module, { logger: createTestLogger().logger })).rejects.toThrow(/apiKeys\.clientIp and browser\.clientIp .*differ/);
  });
});
