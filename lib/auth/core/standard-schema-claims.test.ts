import { SignJWT } from 'jose';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as v from 'valibot';
import { type } from 'arktype';
import { createApp, createManualClock, defineController, defineModule, get, type StandardSchemaV1 } from '../../index.js';
import { send } from '../../../test/http-helpers.js';
import { defineAuthModule } from '../index.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const NOW = Date.parse('2026-11-21T12:00:00Z');

async function token(claims: Record<string, unknown>): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuedAt(NOW / 1000).setExpirationTime(NOW / 1000 + 900).sign(new TextEncoder().encode(SECRET));
}

async function appWith(Claims: StandardSchemaV1<unknown, { sub: string; roles: string[] }>) {
  const auth = defineAuthModule(Claims);
  const Admin = auth.createRolesGuard('admin');
  const controller = defineController({
    name: 'Things',
    routes: () => ({
      me: get('/me', { guards: [auth.JwtAuthGuard] }, (ctx) => auth.getCurrentUser(ctx)),
      admin: get('/admin', { guards: [auth.JwtAuthGuard, Admin] }, () => 'admin'),
    }),
  });
  return createApp(defineModule({ name: 'Root', imports: [auth.AuthModule.forRoot({ secret: SECRET, clock: createManualClock(NOW) })], controllers: [controller] }));
}

const claimsSchemas: readonly [string, StandardSchemaV1<unknown, { sub: string; roles: string[] }>][] = [
  ['valibot', v.object({ sub: v.string(), roles: v.array(v.string()) })],
  ['ArkType', type({ sub: 'string', roles: 'string[]' }).onUndeclaredKey('delete')],
];

describe.each(claimsSchemas)('a %s claims schema', (_vendor, Claims) => {
  it('types the current user from the schema output', () => {
    const auth = defineAuthModule(v.object({ sub: v.string(), roles: v.array(v.string()) }));
    expectTypeOf(auth.getCurrentUser(undefined)).toEqualTypeOf<{ sub: string; roles: string[] } | undefined>();
  });

  it('accepts a token whose claims the schema accepts and exposes its output', async () => {
    const app = await appWith(Claims);
    const res = await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${await token({ sub: 'u1', roles: ['admin'], extra: 'dropped' })}` } });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sub: 'u1', roles: ['admin'] });
    expect((await send(app, 'GET', '/admin', { headers: { authorization: `Bearer ${await token({ sub: 'u1', roles: ['admin'] })}` } })).status).toBe(200);
  });

  it('refuses a token whose claims the schema refuses with 401', async () => {
    const app = await appWith(Claims);
    const res = await send(app, 'GET', '/me', { headers: { authorization: `Bearer ${await token({ sub: 42, roles: [] })}` } });
    expect(res.status, 'claims the schema refuses were let in').toBe(401);
  });
});
