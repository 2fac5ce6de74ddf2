import { describe, expect, expectTypeOf, it, onTestFinished } from 'vitest';
import { createClient } from '../../lib/client/index.js';
import { createApp } from '../../lib/index.js';
import { serve } from '../../lib/node.js';
import { auth as tenantsAuth } from './claims.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { tenantPostsController } from './tenant-posts-controller.js';
import { createTenantsModule } from './tenants-module.js';

describe('a typed client for the tenants app', () => {
  it('signs in, then uses the bearer token on tenant routes; the prefix parameter is typed and required', async () => {
    const app = await createApp(createTenantsModule(readTenantsConfig({ AUTH_SECRET: 'x'.repeat(32) }, () => undefined)));
    // A live server: the client speaks HTTP over a real socket, auth headers included.
    const server = await serve(app, { port: 0 });
    onTestFinished(() => server.close({ forceAfterMs: 200 }));
    // The mounted JSON routes' controller, typed: the same prefix the module mounts it under.
    const auth = createClient(tenantsAuth.routeControllers().json, server.url);
    const signedIn = await auth.signIn({ body: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    if (!signedIn.ok) throw new Error(`sign-in failed: ${JSON.stringify(signedIn.problem)}`);
    const token = signedIn.data.accessToken; // typed from the handler's result, as JSON

    const posts = createClient(tenantPostsController, { baseUrl: server.url, headers: { authorization: `Bearer ${token}` } });
    const created = await posts.create({ params: { tenantId: 'acme' }, body: { title: 'From the client' } });
    expect(created.status).toBe(201);
    if (!created.ok) throw new Error('create failed');
    expectTypeOf(created.data.title).toEqualTypeOf<string>();
    const list = await posts.list({ params: { tenantId: 'acme' } });
    expect(list.ok && list.data.map((p) => p.title)).toContain('From the client');

    const anonymous = createClient(tenantPostsController, server.url);
    const refused = await anonymous.list({ params: { tenantId: 'acme' } });
    expect(refused.ok).toBe(false);
    expect(refused.status).toBe(401);
    const otherTenant = await posts.list({ params: { tenantId: 'globex' } });
    expect(otherTenant.status, 'another tenant is 404').toBe(404);
    if (!created.ok) throw new Error('unreachable');
    const id = created.data.id;
    const read = await posts.get({ params: { tenantId: 'acme', id } });
    expect(read.ok && read.data.title).toBe('From the client');
    const updated = await posts.update({ params: { tenantId: 'acme', id }, body: { title: 'Renamed' } });
    expect(updated.ok && updated.data.title).toBe('Renamed');
    expect((await posts.remove({ params: { tenantId: 'acme', id } })).status, 'an owner deletes: 204').toBe(204);
    const refreshed = await auth.refresh({ body: { refreshToken: signedIn.data.refreshToken } });
    expect(refreshed.ok).toBe(true);
    expect((await auth.signOut({ body: { refreshToken: signedIn.data.refreshToken } })).ok).toBe(true);

    const compileOnly = async () => {
      // @ts-expect-error the controller prefix's parameter is required too
      await posts.list({});
    };
    expect(typeof compileOnly).toBe('function');
  });
});
