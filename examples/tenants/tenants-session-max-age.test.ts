// The tenants app's absolute session lifetime, read from SESSION_MAX_AGE_SECONDS (default 30 days):
// refreshing every 29 days, as in issue 48's report, stops at the bound instead of working for ever.
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, type App } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

const T0 = Date.parse('2026-11-21T12:00:00Z');
const DAY_MS = 86_400_000;

async function boot(env: Record<string, string> = {}) {
  const clock = createManualClock(T0);
  const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef', ...env }, () => undefined);
  return { app: await createApp(createTenantsModule(config, { clock })), clock };
}

/** Refreshes every `days` days, `times` times; answers the statuses. */
async function refreshEvery(app: App, clock: ReturnType<typeof createManualClock>, days: number, times: number): Promise<number[]> {
  const signIn = await send(app, 'POST', '/auth/sign-in', { json: { identifier: 'bob@acme.test', password: DEMO_PASSWORD } });
  expect(signIn.status, 'sign-in').toBe(200);
  let refreshToken = (signIn.json as { refreshToken: string }).refreshToken;
  const statuses: number[] = [];
  for (let i = 0; i < times; i++) {
    clock.advance(days * DAY_MS);
    const res = await send(app, 'POST', '/auth/refresh', { json: { refreshToken } });
    statuses.push(res.status);
    if (res.status === 200) refreshToken = (res.json as { refreshToken: string }).refreshToken;
  }
  return statuses;
}

describe('tenants: absolute session lifetime (SESSION_MAX_AGE_SECONDS)', () => {
  it('by default a session refreshed every 29 days ends at 30 days, not after a year of refreshes', async () => {
    const { app, clock } = await boot();
    const statuses = await refreshEvery(app, clock, 29, 13);
    expect(statuses, 'day 29 refreshes; day 58 and after are refused').toEqual([200, ...Array<number>(12).fill(401)]);
  });

  it('reads SESSION_MAX_AGE_SECONDS: two days, refreshed daily', async () => {
    const { app, clock } = await boot({ SESSION_MAX_AGE_SECONDS: String(2 * 86_400) });
    expect(await refreshEvery(app, clock, 1, 3)).toEqual([200, 401, 401]);
  });
});
