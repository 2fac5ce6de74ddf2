// The tenants app's security headers (issue 48): the API defaults on JSON answers, the account
// pages' own CSP kept, HSTS when the app is reached over https (directly, or behind its trusted
// TLS-terminating proxy), never over plain http.
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { readTenantsConfig } from './config.js';
import { serveTenantsAccountPages } from './account-pages.js';
import { tenantsSecurityHeaders } from './security-headers.js';
import { createTenantsModule } from './tenants-module.js';

async function boot(env: Record<string, string> = {}): Promise<App> {
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', APP_URL: 'https://tenants.example', ...env }, () => undefined);
  const app = await createApp(createTenantsModule(config, { clock: createManualClock(Date.parse('2026-11-28T06:00:00Z')) }), { logger: silentLogger, middleware: [tenantsSecurityHeaders(config)] });
  serveTenantsAccountPages(app);
  return app;
}

describe('tenants: security headers', () => {
  it('answers JSON over https with the API headers and one year of HSTS', async () => {
    const res = await (await boot()).request('https://tenants.example/me');
    expect(res.headers.get('strict-transport-security'), 'no HSTS over https').toBe('max-age=31536000');
    expect(res.headers.get('content-security-policy'), "not the API's CSP").toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
  });

  it("serves an account page with its own CSP (not the API's) and HSTS over https", async () => {
    const res = await (await boot()).request('https://tenants.example/verify-email?token=x');
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy'), "the page's CSP was replaced").toBe("default-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    expect(res.headers.get('strict-transport-security'), 'the page lacks HSTS').toBe('max-age=31536000');
  });

  it('sends no HSTS over plain http', async () => {
    const res = await (await boot()).request('http://127.0.0.1/me');
    expect(res.headers.get('strict-transport-security'), 'HSTS over http').toBeNull();
    expect(res.headers.get('x-content-type-options'), 'the other headers went missing').toBe('nosniff');
  });

  it("behind TRUSTED_PROXY_HOPS, believes the proxy's X-Forwarded-Proto: https", async () => {
    const app = await boot({ TRUSTED_PROXY_HOPS: '1' });
    const res = await app.request('http://10.0.0.5/me', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security'), "the TLS proxy's word was ignored").toBe('max-age=31536000');
  });

  it('without trusted proxies, ignores a client-written X-Forwarded-Proto', async () => {
    const res = await (await boot()).request('http://127.0.0.1/me', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security'), 'a client-written header was believed').toBeNull();
  });
});
