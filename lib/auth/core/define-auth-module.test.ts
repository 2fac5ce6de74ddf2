import { SignJWT, base64url } from 'jose';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createManualClock, defineController, defineModule, get, MissingProviderError, ProviderNotVisibleError, type ModuleDefinition } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { AuthConfigError, defineAuthModule, Public, Roles } from '../index.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
const NOW = Date.parse('2026-11-21T12:00:00Z');
const key = new TextEncoder().encode(SECRET);

async function token(
  claims: Record<string, unknown> = { sub: 'u1', roles: ['member'] },
  options: { exp?: number | null; alg?: string; typ?: string; secret?: Uint8Array; iss?: string; aud?: string; header?: Record<string, unknown> } = {},
): Promise<string> {
  const jwt = new SignJWT(claims).setProtectedHeader({ alg: options.alg ?? 'HS256', typ: options.typ ?? 'at+jwt', ...options.header }).setIssuedAt(NOW / 1000);
  if (options.exp !== null) jwt.setExpirationTime(options.exp ?? NOW / 1000 + 900);
  if (options.iss) jwt.setIssuer(options.iss);
  if (options.aud) jwt.setAudience(options.aud);
  return jwt.sign(options.secret ?? key);
}

function bearer(t: string) {
  return { authorization: `Bearer ${t}` };
}

async function setup(extra: { issuer?: string; audience?: string; protectAllRoutes?: boolean; global?: boolean } = {}) {
  const auth = defineAuthModule(Claims);
  const clock = createManualClock(NOW);
  const Admin = auth.createRolesGuard('admin');
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      jwt: get('/jwt', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)),
      admin: get('/admin', { guards: [auth.JwtAuthGuard, Admin] }, () => 'admin'),
      misordered: get('/misordered', { guards: [Admin] }, () => 'never'),
      open: get('/open', () => ({ user: auth.getCurrentUser(undefined) ?? null })),
    }),
  });
  const module = defineModule({
    name: 'Root',
    imports: [auth.AuthModule.forRoot({ secret: SECRET, clock, ...extra })],
    controllers: [controller],
  });
  return { app: await createApp(module), clock, auth };
}

describe('AuthModule.forRoot', () => {
  it('refuses secrets shorter than the algorithm needs, counting UTF-8 bytes', () => {
    const auth = defineAuthModule(Claims);
    expect(() => auth.AuthModule.forRoot({ secret: 'x'.repeat(31) })).toThrow(AuthConfigError);
    expect(() => auth.AuthModule.forRoot({ secret: 'x'.repeat(32) })).not.toThrow();
    expect(() => auth.AuthModule.forRoot({ secret: 'x'.repeat(47), algorithm: 'HS384' })).toThrow(AuthConfigError);
    expect(() => auth.AuthModule.forRoot({ secret: 'x'.repeat(63), algorithm: 'HS512' })).toThrow(AuthConfigError);
    // 16 characters of 2 bytes each: 32 bytes, enough for HS256 although only 16 characters.
    expect(() => auth.AuthModule.forRoot({ secret: 'é'.repeat(16) })).not.toThrow();
    expect(() => auth.AuthModule.forRoot({ secret: 'é'.repeat(15) + 'x' })).toThrow(/32 bytes/);
    try {
      auth.AuthModule.forRoot({ secret: 'short-secret-value' });
    } catch (error) {
      expect((error as Error).message).not.toContain('short-secret-value');
    }
  });

  it('makes AUTH_SERVICE resolvable only with issuing', async () => {
    const auth = defineAuthModule(Claims);
    const controller = defineController({ name: 'C', inject: [auth.AUTH_SERVICE], routes: () => ({}) });
    const module = defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET })], controllers: [controller] });
    await expect(createApp(module)).rejects.toBeInstanceOf(MissingProviderError);
  });

  it('is visible everywhere only when global', async () => {
    const build = (global: boolean): ModuleDefinition => {
      const auth = defineAuthModule(Claims);
      const feature = defineModule({
        name: 'Feature',
        controllers: [defineController({ name: 'F', routes: () => ({ x: get('/x', { guards: [auth.JwtAuthGuard] }, () => 1) }) })],
      });
      return defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET, global }), feature] });
    };
    await expect(createApp(build(true))).resolves.toBeDefined();
    const error = await createApp(build(false)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderNotVisibleError);
    expect((error as Error).message).toMatch(/AuthModule/);
  });
});

describe('JwtAuthGuard', () => {
  it('accepts a valid bearer token and exposes the parsed claims', async () => {
    const { app } = await setup();
    const res = await send(app, 'GET', '/jwt', { headers: bearer(await token({ sub: 'u1', roles: ['a'], extra: 'dropped' })) });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sub: 'u1', roles: ['a'] });
    const lower = await send(app, 'GET', '/jwt', { headers: { authorization: `bearer ${await token()}` } });
    expect(lower.status).toBe(200);
  });

  it('answers the same 401 with WWW-Authenticate: Bearer for every failure', async () => {
    const { app } = await setup();
    const bodies = new Set<string>();
    const cases: Record<string, Record<string, string>> = {
      missing: {},
      basic: { authorization: 'Basic dXNlcjpwYXNz' },
      empty: { authorization: 'Bearer ' },
      twoTokens: { authorization: `Bearer ${await token()} extra` },
      garbage: bearer('not-a-jwt'),
      wrongSecret: bearer(await token(undefined, { secret: new TextEncoder().encode('another-secret-that-is-long-enough-too!!') })),
      noExp: bearer(await token(undefined, { exp: null })),
      wrongTyp: bearer(await token(undefined, { typ: 'rt+jwt' })),
      badClaims: bearer(await token({ sub: 42 })),
      apiKeyHeaderOnly: {},
    };
    for (const [name, headers] of Object.entries(cases)) {
      const res = await send(app, 'GET', '/jwt', { headers: name === 'apiKeyHeaderOnly' ? { 'x-api-key': 'tsk_x' } : headers });
      expect(res.status, name).toBe(401);
      expect(res.headers.get('www-authenticate'), name).toBe('Bearer');
      bodies.add(res.text);
    }
    expect(bodies.size).toBe(1);
  });

  it('enforces expiry to the second, also for a cached token', async () => {
    const { app, clock } = await setup();
    const t = await token(undefined, { exp: NOW / 1000 + 10 });
    expect((await send(app, 'GET', '/jwt', { headers: bearer(t) })).status).toBe(200);
    clock.advance(9_999);
    expect((await send(app, 'GET', '/jwt', { headers: bearer(t) })).status).toBe(200);
    clock.advance(1);
    expect((await send(app, 'GET', '/jwt', { headers: bearer(t) })).status).toBe(401);
  });

  it('checks iss and aud when configured', async () => {
    const { app } = await setup({ issuer: 'me', audience: 'api' });
    expect((await send(app, 'GET', '/jwt', { headers: bearer(await token(undefined, { iss: 'me', aud: 'api' })) })).status).toBe(200);
    expect((await send(app, 'GET', '/jwt', { headers: bearer(await token(undefined, { iss: 'other', aud: 'api' })) })).status).toBe(401);
    expect((await send(app, 'GET', '/jwt', { headers: bearer(await token(undefined, { iss: 'me', aud: 'other' })) })).status).toBe(401);
    expect((await send(app, 'GET', '/jwt', { headers: bearer(await token()) })).status).toBe(401);
  });

  describe('resists known JWT attacks', () => {
    const unsigned = (header: object, payload: object) =>
      `${base64url.encode(JSON.stringify(header))}.${base64url.encode(JSON.stringify(payload))}.`;
    const claims = { sub: 'evil', roles: ['admin'], exp: NOW / 1000 + 900 };

    it('alg none', async () => {
      const { app } = await setup();
      for (const alg of ['none', 'None', 'NONE']) {
        expect((await send(app, 'GET', '/jwt', { headers: bearer(unsigned({ alg, typ: 'at+jwt' }, claims)) })).status).toBe(401);
      }
    });

    it('algorithm confusion: another HMAC size, or an asymmetric alg MACed with the secret', async () => {
      const { app } = await setup();
      const longKey = new TextEncoder().encode(SECRET.repeat(2));
      expect((await send(app, 'GET', '/jwt', { headers: bearer(await token(claims, { alg: 'HS512', secret: longKey })) })).status).toBe(401);
      expect((await send(app, 'GET', '/jwt', { headers: bearer(await token(claims, { alg: 'HS384', secret: longKey })) })).status).toBe(401);
      // RS256 header, but the signature is an HMAC of the secret (the classic public-key-as-secret trick).
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(key);
      const [, payload, signature] = forged.split('.');
      const rsHeader = base64url.encode(JSON.stringify({ alg: 'RS256', typ: 'at+jwt' }));
      expect((await send(app, 'GET', '/jwt', { headers: bearer(`${rsHeader}.${payload}.${signature}`) })).status).toBe(401);
    });

    it('unknown crit header', async () => {
      const { app } = await setup();
      const t = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', crit: ['x-custom'], 'x-custom': 1 } as never).sign(key).catch(() => undefined);
      // jose refuses to sign with an unknown crit; build it by hand with a valid MAC instead.
      const header = base64url.encode(JSON.stringify({ alg: 'HS256', typ: 'at+jwt', crit: ['x-custom'], 'x-custom': 1 }));
      const body = base64url.encode(JSON.stringify(claims));
      const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']), new TextEncoder().encode(`${header}.${body}`)));
      const handmade = `${header}.${body}.${base64url.encode(mac)}`;
      for (const candidate of [t, handmade].filter((x): x is string => x !== undefined)) {
        expect((await send(app, 'GET', '/jwt', { headers: bearer(candidate) })).status).toBe(401);
      }
    });

    it('key injection through jwk / jku header parameters', async () => {
      const { app } = await setup();
      for (const header of [{ jwk: { kty: 'oct', k: base64url.encode(key) } }, { jku: 'https://attacker.example/keys' }]) {
        const t = await token(claims, { header });
        expect((await send(app, 'GET', '/jwt', { headers: bearer(t) })).status).toBe(401);
      }
    });
  });
});

describe('roles guard', () => {
  it('gives 401 without a prior authenticated user, 403 without the role, 200 with it', async () => {
    const { app } = await setup();
    expect((await send(app, 'GET', '/misordered', { headers: bearer(await token()) })).status).toBe(401);
    expect((await send(app, 'GET', '/admin', { headers: bearer(await token({ sub: 'u', roles: ['member'] })) })).status).toBe(403);
    expect((await send(app, 'GET', '/admin', { headers: bearer(await token({ sub: 'u', roles: ['admin'] })) })).status).toBe(200);
  });

  it('getCurrentUser is undefined outside a request or before a guard ran', async () => {
    const { app } = await setup();
    expect((await send(app, 'GET', '/open', { headers: bearer(await token()) })).json).toEqual({ user: null });
  });
});

describe('AuthGuard', () => {
  async function guarded(protectAllRoutes: boolean) {
    const auth = defineAuthModule(Claims);
    const clock = createManualClock(NOW);
    const guards = protectAllRoutes ? [] : [auth.AuthGuard];
    const controller = defineController({
      name: 'Mixed',
      guards,
      metadata: [Roles('admin')],
      routes: () => ({
        adminOnly: get('/admin', () => 'admin'),
        publicHere: get('/public', { metadata: [Public()] }, (ctx) => auth.getCurrentUser(ctx) ?? 'anonymous'),
        memberHere: get('/member', { metadata: [Roles('member')] }, () => 'member'),
      }),
    });
    const openController = defineController({
      name: 'Open',
      guards,
      metadata: [Public()],
      routes: () => ({
        open: get('/open', () => 'open'),
        closed: get('/open/closed', { metadata: [Roles('member')] }, () => 'closed'),
        plain: get('/plain', { metadata: [] }, () => 'plain'),
      }),
    });
    const app = await createApp(
      defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET, clock, protectAllRoutes })], controllers: [controller, openController] }),
    );
    return app;
  }

  for (const protectAllRoutes of [false, true]) {
    it(`enforces Public and Roles with route overriding controller (protectAllRoutes: ${protectAllRoutes})`, async () => {
      const app = await guarded(protectAllRoutes);
      const member = bearer(await token({ sub: 'm', roles: ['member'] }));
      const admin = bearer(await token({ sub: 'a', roles: ['admin'] }));
      expect((await send(app, 'GET', '/admin')).status).toBe(401);
      expect((await send(app, 'GET', '/admin', { headers: member })).status).toBe(403);
      expect((await send(app, 'GET', '/admin', { headers: admin })).status).toBe(200);
      expect((await send(app, 'GET', '/public')).json).toBe('anonymous');
      expect((await send(app, 'GET', '/member', { headers: member })).status).toBe(200);
      expect((await send(app, 'GET', '/member', { headers: admin })).status).toBe(403);
      expect((await send(app, 'GET', '/open')).status).toBe(200);
      expect((await send(app, 'GET', '/open/closed')).status).toBe(401);
      expect((await send(app, 'GET', '/open/closed', { headers: member })).status).toBe(200);
      expect((await send(app, 'GET', '/plain')).status).toBe(200);
    });
  }

  it('protectAllRoutes covers routes without any guard and leaves Public ones open', async () => {
    const auth = defineAuthModule(Claims);
    const controller = defineController({ name: 'C', routes: () => ({ x: get('/x', () => 'x'), p: get('/p', { metadata: [Public()] }, () => 'p') }) });
    const app = await createApp(defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET, protectAllRoutes: true })], controllers: [controller] }));
    expect((await send(app, 'GET', '/x')).status).toBe(401);
    expect((await send(app, 'GET', '/p')).status).toBe(200);
  });
});

describe('issuing boot', () => {
  it('computes the dummy password hash at boot, so the first unknown-account sign-in does no extra hashing', async () => {
    const { InMemoryCredentialStore, InMemoryRefreshTokenStore } = await import('../index.js');
    const calls = { hash: 0, verify: 0 };
    const passwordHasher = {
      hash: async (password: string) => {
        calls.hash++;
        return `hashed:${password}`;
      },
      verify: async (password: string, phc: string) => {
        calls.verify++;
        return phc === `hashed:${password}`;
      },
    };
    const auth = defineAuthModule(Claims);
    const controller = defineController({
      name: 'SignIn',
      inject: [auth.AUTH_SERVICE],
      routes: (service) => ({ signIn: get('/sign-in/:id', async (ctx) => service.signIn(ctx.params.id, 'pw').then(() => 'ok')) }),
    });
    const app = await createApp(
      defineModule({
        name: 'Root',
        imports: [auth.AuthModule.forRoot({ secret: SECRET, issuing: { credentialStore: InMemoryCredentialStore, refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher } })],
        controllers: [controller],
      }),
    );
    expect(calls).toEqual({ hash: 1, verify: 0 });
    expect((await send(app, 'GET', '/sign-in/nobody')).status).toBe(401);
    // One real verification against the cached dummy hash, and no hashing on the request path.
    expect(calls).toEqual({ hash: 1, verify: 1 });
  });
});
