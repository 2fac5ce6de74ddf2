// Strict-Transport-Security when the app is reached over https, never over plain http (RFC 6797
// section 7.2). Issue 48: HSTS was opt-in and, once given, went out over http too.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest, createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequestListener } from '../adapters/node/node-listeners.js';
import { createApp, defineController, defineModule, get, silentLogger, type App } from '../index.js';
import { securityHeaders, type SecurityHeadersOptions } from './security-headers.js';

async function appWith(options?: SecurityHeadersOptions): Promise<App> {
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      list: get('/things', () => [{ id: '1' }]),
      page: get('/page', () => new Response('<!doctype html><p>hi', { headers: { 'content-type': 'text/html', 'strict-transport-security': 'max-age=60' } })),
    }),
  });
  return createApp(defineModule({ name: 'Root', controllers: [controller] }), { logger: silentLogger, middleware: [securityHeaders(options)] });
}

const hstsOf = async (app: App, url: string, headers: Record<string, string> = {}) => (await app.request(url, { headers })).headers.get('strict-transport-security');

describe('securityHeaders: HSTS', () => {
  it('sends one year of HSTS by default on an answer to an https request', async () => {
    expect(await hstsOf(await appWith(), 'https://api.example/things'), 'no HSTS over https by default').toBe('max-age=31536000');
  });

  it('sends it on error answers over https too (a 404)', async () => {
    expect(await hstsOf(await appWith(), 'https://api.example/nowhere'), 'a 404 over https lacks HSTS').toBe('max-age=31536000');
  });

  it('never sends it over plain http', async () => {
    expect(await hstsOf(await appWith({ hsts: { maxAge: 600 } }), 'http://api.example/things'), 'HSTS went out over http').toBeNull();
  });

  it('ignores X-Forwarded-Proto unless told to trust it', async () => {
    expect(await hstsOf(await appWith(), 'http://api.example/things', { 'x-forwarded-proto': 'https' }), 'a client-written X-Forwarded-Proto was believed').toBeNull();
  });

  it("with trustForwardedProto, believes the nearest proxy's X-Forwarded-Proto: https", async () => {
    const app = await appWith({ hsts: { trustForwardedProto: true } });
    expect(await hstsOf(app, 'http://api.example/things', { 'x-forwarded-proto': 'https' }), 'the proxy said https').toBe('max-age=31536000');
    expect(await hstsOf(app, 'http://api.example/things', { 'x-forwarded-proto': 'https, http' }), 'the nearest proxy said http').toBeNull();
  });

  it('writes includeSubDomains and preload as asked', async () => {
    expect(await hstsOf(await appWith({ hsts: { maxAge: 63_072_000, includeSubDomains: true, preload: true } }), 'https://api.example/things')).toBe('max-age=63072000; includeSubDomains; preload');
  });

  it('is turned off with hsts: false', async () => {
    expect(await hstsOf(await appWith({ hsts: false }), 'https://api.example/things'), 'hsts: false still sent it').toBeNull();
  });

  it("keeps the handler's own header", async () => {
    expect(await hstsOf(await appWith(), 'https://api.example/page'), "the handler's HSTS was replaced").toBe('max-age=60');
  });

  it.each([{ maxAge: -1 }, { maxAge: 1.5 }, { preload: true }, { maxAge: 600, includeSubDomains: true, preload: true }])('refuses %j at boot', (hsts) => {
    expect(() => securityHeaders({ hsts }), `${JSON.stringify(hsts)} was accepted`).toThrow(/hsts/);
  });
});

// The Node adapter reads the TLS socket itself. A certificate for 127.0.0.1 is made for the test
// with the openssl command line (Debian's openssl package, present wherever the PostgreSQL test
// server runs); without it the test is reported skipped.
const openssl = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('securityHeaders: HSTS on the Node adapter', () => {
  it.skipIf(!openssl)('sends it on a real TLS connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-hsts-'));
    try {
      execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')], { stdio: 'ignore' });
      const cert = readFileSync(join(dir, 'cert.pem'));
      const server = createHttpsServer({ key: readFileSync(join(dir, 'key.pem')), cert }, createRequestListener(await appWith()));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const hsts = await new Promise<string | undefined>((resolve, reject) => {
          const req = httpsRequest({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, path: '/things', ca: cert }, (res) => {
            res.resume();
            resolve(res.headers['strict-transport-security'] as string | undefined);
          });
          req.on('error', reject);
          req.end();
        });
        expect(hsts, 'no HSTS on a TLS connection to the Node adapter').toBe('max-age=31536000');
      } finally {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
