// E-mail addresses on the tenants app (issue 48): one normalisation for accounts, lookups and
// the sign-in throttle; invisible, bidirectional-control and unpaired-surrogate characters refused.
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, silentLogger, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

async function boot(): Promise<App> {
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', APP_URL: 'https://tenants.example' }, () => undefined);
  return createApp(createTenantsModule(config, { clock: createManualClock(Date.parse('2026-11-28T06:00:00Z')) }), { logger: silentLogger });
}

const subjectOf = (answer: { json: unknown }) => JSON.parse(Buffer.from(((answer.json as { accessToken: string }).accessToken.split('.')[1] ?? ''), 'base64url').toString('utf8')).sub as string;

describe('tenants: e-mail addresses', () => {
  it.each([
    ['a zero-width space', 'vic\u200Btim@example.test'],
    ['a right-to-left override', 'x\u202E@example.test'],
    ['an unpaired surrogate', 'x\uD800@example.test'],
  ])('POST /auth/sign-up refuses %s with a 400 problem on the email field', async (_, email) => {
    const app = await boot();
    const answer = await send(app, 'POST', '/auth/sign-up', { json: { email, password: 'a long enough passphrase' } });
    expect(answer.status, `accepted ${JSON.stringify(email)}: ${answer.text}`).toBe(400);
    expect(answer.headers.get('content-type'), 'not a problem document').toMatch(/^application\/problem\+json/);
    expect(answer.json, 'not the e-mail problem').toMatchObject({ status: 400, field: 'email' });
  });

  it('POST /auth/sign-in with the fullwidth spelling of an address is that account, not another', async () => {
    const app = await boot();
    const plain = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    const wide = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'ａｌｉｃｅ@acme.test', password: DEMO_PASSWORD } });
    expect(wide.status, `the fullwidth spelling did not find the account: ${wide.text}`).toBe(200);
    expect(subjectOf(wide), 'the fullwidth spelling signed in as someone else').toBe(subjectOf(plain));
  });
});
