// The wiring docs/production.md shows: the PostgreSQL stores as providers of the auth module,
// built by the container from SQL_CLIENT, here on PGlite; sign-in, refresh, reuse, sign-out.
import { z } from 'zod';
import type { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, defineController, defineModule, defineProvider, post } from '../../lib/index.js';
import type { App } from '../../lib/index.js';
import { defineAuthModule, hashPassword, Public } from '../../lib/auth/index.js';
import type { AuthService } from '../../lib/auth/index.js';
import { PostgresApiKeyStore, PostgresCredentialStore, PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { SQL_CLIENT } from '../../lib/postgres/index.js';
import { send } from '../http-helpers.js';
import { createMigratedPGlite } from './support/pglite.js';

const Claims = z.object({ sub: z.string(), roles: z.array(z.string()) });
type Claims = z.output<typeof Claims>;
const auth = defineAuthModule(Claims);

const Body = z.object({ identifier: z.string().optional(), password: z.string().optional(), refreshToken: z.string().optional() });
const sessions = defineController({
  name: 'SessionsController',
  prefix: '/auth',
  inject: [auth.AUTH_SERVICE],
  metadata: [Public()],
  routes: (service: AuthService) => ({
    signIn: post('/sign-in', { body: Body }, (ctx) => service.signIn(ctx.body.identifier ?? '', ctx.body.password ?? '')),
    refresh: post('/refresh', { body: Body }, (ctx) => service.refresh(ctx.body.refreshToken ?? '')),
    signOut: post('/sign-out', { body: Body }, async (ctx) => {
      await service.signOut(ctx.body.refreshToken ?? '');
    }),
  }),
});

describe('PostgreSQL stores given to AuthModule.forRoot through SQL_CLIENT (PGlite)', () => {
  let db: PGlite;
  let app: App;
  beforeAll(async () => {
    db = await createMigratedPGlite();
    await new PostgresCredentialStore<Claims>(db).addAccount({
      identifier: 'Dana@Example.test',
      subject: 'dana',
      passwordHash: await hashPassword('correct horse'),
      claims: { sub: 'dana', roles: ['member'] },
    });
    const DatabaseModule = defineModule({ name: 'DatabaseModule', providers: [{ provide: SQL_CLIENT, useValue: db }], exports: [SQL_CLIENT] });
    app = await createApp(
      defineModule({
        name: 'AppModule',
        imports: [
          auth.AuthModule.forRoot({
            secret: 'wiring-test-secret-0123456789abcdef',
            issuing: {
              credentialStore: defineProvider(PostgresCredentialStore<Claims>, [SQL_CLIENT]),
              refreshTokenStore: defineProvider(PostgresRefreshTokenStore, [SQL_CLIENT]),
              imports: [DatabaseModule],
            },
            apiKeys: { store: defineProvider(PostgresApiKeyStore, [SQL_CLIENT]), imports: [DatabaseModule] },
          }),
        ],
        controllers: [sessions],
      }),
    );
  }, 30_000);
  afterAll(async () => {
    await app?.close();
    await db?.close();
  });

  it('signs in (identifier case-insensitive), rotates, detects reuse and signs out', async () => {
    const signIn = await send(app, 'POST', '/auth/sign-in', { json: { identifier: ' dana@example.TEST', password: 'correct horse' } });
    expect(signIn.status).toBe(200);
    const first = signIn.json as { refreshToken: string };
    const second = await send(app, 'POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } });
    expect(second.status).toBe(200);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: first.refreshToken } })).status).toBe(401);
    expect((await send(app, 'POST', '/auth/refresh', { json: { refreshToken: (second.json as { refreshToken: string }).refreshToken } })).status).toBe(401);
    const { rows } = await db.query<{ revoked: number }>("SELECT count(*)::int AS revoked FROM tessera_refresh_tokens WHERE subject = 'dana' AND revoked_at IS NOT NULL");
    expect(rows[0]?.revoked).toBe(2);
    expect((await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'dana@example.test', password: 'wrong' } })).status).toBe(401);
  });
});
