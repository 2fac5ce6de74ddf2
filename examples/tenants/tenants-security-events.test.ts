// The tenants app's security events: its own (an API key created) beside the module's (a sign-in,
// a key revoked), each one JSON line with the key's id, never the key.
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, jsonLogger } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

describe('tenants: security events', () => {
  it('logs a sign-in, an API key created and revoked, with the key id and never the key', async () => {
    const lines: string[] = [];
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
    const app = await createApp(createTenantsModule(config, { clock: createManualClock(Date.parse('2026-11-21T12:00:00Z')) }), { logger: jsonLogger({ write: (line) => lines.push(line) }) });
    const signIn = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    const authorization = `Bearer ${(signIn.json as { accessToken: string }).accessToken}`;
    const created = await send(app, 'POST', '/tenants/acme/api-keys', { headers: { authorization }, json: { name: 'ci', scopes: ['posts:read'] } });
    expect(created.status).toBe(201);
    const { id, key } = created.json as { id: string; key: string };
    expect((await send(app, 'DELETE', `/tenants/acme/api-keys/${id}`, { headers: { authorization } })).status).toBe(204);
    const events = lines.map((line) => JSON.parse(line) as { event?: string; keyId?: string; securityEvent?: boolean }).filter((line) => line.securityEvent === true);
    expect(events.map(({ event, keyId }) => ({ event, keyId }))).toEqual([
      { event: 'auth.sign-in.succeeded', keyId: undefined },
      { event: 'auth.api-key.created', keyId: id },
      { event: 'auth.api-key.revoked', keyId: id },
    ]);
    expect(lines.join('\n').includes(key), 'the key in a log line').toBe(false);
  });
});
