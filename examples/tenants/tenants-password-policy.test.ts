// Common passwords refused at sign-up (ASVS 5.0 6.2.4 L1, 6.2.12). Issue 48 reproduced
// `123456789012` and `passwordpassword` answering 202 on this app.
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { createTenantsModule } from './tenants-module.js';

async function boot(): Promise<App> {
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', APP_URL: 'https://tenants.example' }, () => undefined);
  return createApp(createTenantsModule(config, { clock: createManualClock(Date.parse('2026-11-28T06:00:00Z')) }), { logger: silentLogger });
}

describe('tenants: POST /auth/sign-up with a common password', () => {
  it.each(['123456789012', 'passwordpassword', 'PasswordPassword'])('answers %j with a 400 password problem', async (password) => {
    const app = await boot();
    const answer = await send(app, 'POST', '/auth/sign-up', { json: { email: 'ivy@example.test', password } });
    expect(answer.status, `a common password was accepted: ${answer.text}`).toBe(400);
    expect(answer.headers.get('content-type'), 'not a problem document').toMatch(/^application\/problem\+json/);
    expect(answer.json, 'not the password-policy problem').toMatchObject({ status: 400, detail: 'The password is too common: it is on a list of the most used passwords', field: 'password', commonPassword: true });
  });

  it('answers the same problem at password reset, before the link is used', async () => {
    const app = await boot();
    const answer = await send(app, 'POST', '/auth/password/reset', { json: { token: 'x'.repeat(43), password: '123456789012' } });
    expect(answer.json, 'the reset took a common password (or judged the link first)').toMatchObject({ status: 400, commonPassword: true });
  });
});
