// The tenants app's security events for second factors (ASVS 16.3.1): a factor enabled and
// removed, recovery codes issued, regenerated and used, a refused factor (a warning), each one
// JSON line with the person's subject, never a TOTP secret or code, a recovery code, a pending
// sign-in token or a session token.
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { createApp, createManualClock, jsonLogger } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { readTenantsConfig } from './config.js';
import { DEMO_PASSWORD } from './demo-accounts.js';
import { createTenantsModule } from './tenants-module.js';

const T0 = Date.parse('2026-11-28T12:00:00Z');

interface Pair { accessToken: string; refreshToken: string }

describe('tenants: security events of second factors', () => {
  it('records enabling, refusals, recovery codes and removal, with no secret in any line', async () => {
    const clock = createManualClock(T0);
    const lines: string[] = [];
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
    const app = await createApp(createTenantsModule(config, { clock }), { logger: jsonLogger({ write: (line) => lines.push(line) }) });
    const secrets: string[] = [];
    const signIn = () => send(app, 'POST', '/auth/sign-in', { json: { identifier: 'alice@acme.test', password: DEMO_PASSWORD } });
    const first = (await signIn()).json as Pair;
    secrets.push(first.accessToken, first.refreshToken);
    const me = { authorization: `Bearer ${first.accessToken}` };
    const subject = (JSON.parse(Buffer.from(first.accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string }).sub;
    const codeAt = (secret: string) => TOTP.generate({ secret: Secret.fromBase32(secret), timestamp: clock.now() });

    // Enrol: a wrong confirmation code, then the right one (the first factor: recovery codes too).
    const { secret } = (await send(app, 'POST', '/auth/factors/totp', { headers: me, json: {} })).json as { secret: string };
    secrets.push(secret);
    const right = codeAt(secret);
    const wrong = right === '000000' ? '111111' : '000000';
    expect((await send(app, 'POST', '/auth/factors/totp/confirm', { headers: me, json: { code: wrong } })).status).toBe(401);
    const confirmed = await send(app, 'POST', '/auth/factors/totp/confirm', { headers: me, json: { code: right } });
    expect(confirmed.status).toBe(200);
    const recoveryCodes = (confirmed.json as { recoveryCodes: string[] }).recoveryCodes;
    secrets.push(...recoveryCodes);

    // A second step with a wrong code, then one with a recovery code.
    const pending = () => signIn().then((res) => (res.json as { pendingToken: string }).pendingToken);
    const refusedToken = await pending();
    secrets.push(refusedToken);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: refusedToken, code: wrong } })).status).toBe(401);
    const usedToken = await pending();
    secrets.push(usedToken);
    const second = await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: usedToken, recoveryCode: recoveryCodes[0] } });
    expect(second.status).toBe(200);
    const verified = second.json as Pair;
    secrets.push(verified.accessToken, verified.refreshToken);
    const fresh = { authorization: `Bearer ${verified.accessToken}` };

    // Behind step-up (the second step counts): new recovery codes, then the TOTP removed.
    const regenerated = await send(app, 'POST', '/auth/factors/recovery-codes', { headers: fresh });
    expect(regenerated.status).toBe(200);
    secrets.push(...(regenerated.json as { recoveryCodes: string[] }).recoveryCodes);
    expect((await send(app, 'DELETE', '/auth/factors/totp', { headers: fresh })).status).toBe(204);

    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.securityEvent === true && line.event !== 'auth.sign-in.succeeded' && line.event !== 'auth.session.revoked');
    expect(events.map(({ level, event, subject: who, factor, purpose }) => ({ level, event, subject: who, factor, purpose }))).toEqual([
      { level: 'warn', event: 'auth.second-factor.failed', subject, factor: undefined, purpose: 'enrolment' },
      { level: 'info', event: 'auth.second-factor.enabled', subject, factor: 'totp', purpose: undefined },
      { level: 'info', event: 'auth.recovery-codes.regenerated', subject, factor: undefined, purpose: undefined },
      { level: 'warn', event: 'auth.second-factor.failed', subject, factor: undefined, purpose: 'sign-in' },
      { level: 'info', event: 'auth.recovery-code.used', subject, factor: undefined, purpose: undefined },
      { level: 'info', event: 'auth.recovery-codes.regenerated', subject, factor: undefined, purpose: undefined },
      { level: 'info', event: 'auth.second-factor.removed', subject, factor: 'totp', purpose: undefined },
    ]);
    const log = lines.join('\n');
    for (const value of secrets) expect(log.includes(value), `a secret, code or token is in the log: ${value.slice(0, 6)}...`).toBe(false);
    for (const code of [right, wrong]) expect(log.includes(`"${code}"`), 'a TOTP code is in the log').toBe(false);
  });

  it('records a refused second step of an unknown pending sign-in without a subject', async () => {
    const lines: string[] = [];
    const config = readTenantsConfig({ AUTH_SECRET: 'tenants-test-secret-0123456789abcdef' }, () => undefined);
    const app = await createApp(createTenantsModule(config, { clock: createManualClock(T0) }), { logger: jsonLogger({ write: (line) => lines.push(line) }) });
    const made = 'A'.repeat(43);
    expect((await send(app, 'POST', '/auth/second-factor', { json: { pendingToken: made, code: '123456' } })).status).toBe(401);
    const events = lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.securityEvent === true);
    expect(events.map(({ event, subject, purpose }) => ({ event, subject, purpose }))).toEqual([{ event: 'auth.second-factor.failed', subject: undefined, purpose: 'sign-in' }]);
    expect(lines.join('\n').includes(made), 'the pending token typed is in the log').toBe(false);
  });
});
