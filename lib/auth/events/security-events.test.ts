// Security events (ASVS 5.0 16.3.1): one structured event per sign-in success and failure,
// throttle, refresh-token reuse (a warning), session ended, password or e-mail change, disabled
// account, API key created or revoked: a JSON line through the app's logger, a count on its
// telemetry, and never a secret, token or link in either.
import { metrics, trace } from '@opentelemetry/api';
import type { DataPoint, Histogram } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock, defineController, jsonLogger, post } from '../../index.js';
import { openTelemetry } from '../../otel/index.js';
import { startTestSdk } from '../../otel/test-sdk.test-helper.js';
import { send } from '../../../test/http-helpers.js';
import { InMemoryRefreshTokenStore } from '../sessions/issuing/index.js';
import { defineAuthModule } from '../index.js';
import { capturingMailer, tokenOf } from '../accounts/account-service.test-helper.js';
import { InMemoryAccountStore } from '../accounts/in-memory-account-store.js';
import { authTestApp, plainPasswordHasher as passwordHasher, TestClaims as Claims } from '../core/auth-test-app.test-helper.js';

const PASSWORD = 'correct horse battery';
const NEW_PASSWORD = 'a brand new passphrase';
const sdk = startTestSdk();

interface Line {
  readonly level: string;
  readonly msg: string;
  readonly event?: string;
  readonly [field: string]: unknown;
}

async function setup() {
  const lines: Line[] = [];
  const raw: string[] = [];
  const clock = createManualClock(Date.parse('2026-11-25T12:00:00.000Z'));
  const mailer = capturingMailer();
  const auth = defineAuthModule(Claims);
  const SignIn = z.object({ identifier: z.string(), password: z.string() });
  const controller = defineController({
    name: 'Auth',
    inject: [auth.AUTH_SERVICE],
    routes: (service) => ({
      signIn: post('/sign-in', { body: SignIn }, (ctx) => service.signIn(ctx.body.identifier, ctx.body.password, { clientAddress: '203.0.113.7' })),
    }),
  });
  const app = await authTestApp({
    auth,
    forRoot: () => ({
      clock,
      issuing: { refreshTokenStore: InMemoryRefreshTokenStore, passwordHasher },
      accounts: { store: InMemoryAccountStore, links: 'https://app.example.test', mailer, requireVerifiedEmail: false, newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }) },
      signInThrottle: { perAccount: [{ failures: 2, windowSeconds: 60 }] },
    }),
    controllers: [controller],
    app: {
      logger: jsonLogger({
        write: (line) => {
          raw.push(line);
          lines.push(JSON.parse(line) as Line);
        },
      }),
      instrumentation: openTelemetry(),
    },
  });
  const accounts = app.get(auth.ACCOUNT_SERVICE);
  await accounts.signUp('ada@example.test', PASSWORD);
  await accounts.settled();
  // One session from before the test, for "the others" to end.
  const subject = payloadOf((await app.get(auth.AUTH_SERVICE).signIn('ada@example.test', PASSWORD)).accessToken).sub;
  lines.length = 0;
  raw.length = 0;
  return { app, auth, service: app.get(auth.AUTH_SERVICE), accounts, invalidation: app.get(auth.CREDENTIAL_REVOCATION), events: app.get(auth.SECURITY_EVENTS), mailer, lines, raw, subject, clock };
}

function payloadOf(accessToken: string): { sub: string; sid: string } {
  return JSON.parse(Buffer.from(accessToken.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub: string; sid: string };
}

const eventsOf = (lines: readonly Line[]) => lines.filter((line) => line.securityEvent === true);

beforeAll(() => {
  trace.setGlobalTracerProvider(sdk.tracerProvider);
  metrics.setGlobalMeterProvider(sdk.meterProvider);
});
afterAll(async () => {
  trace.disable();
  metrics.disable();
  await sdk.stop();
});

describe('security events', () => {
  it('a sign-in: one info line with the subject, session and client address, and a count on the telemetry', async () => {
    const { app, lines, subject } = await setup();
    const res = await send(app, 'POST', '/sign-in', { json: { identifier: 'ada@example.test', password: PASSWORD } });
    expect(res.status).toBe(200);
    const sid = payloadOf((res.json as { accessToken: string }).accessToken).sid;
    expect(eventsOf(lines)).toEqual([expect.objectContaining({ level: 'info', msg: 'security event auth.sign-in.succeeded', event: 'auth.sign-in.succeeded', subject, sessionId: sid, clientAddress: '203.0.113.7' })]);
    const collected = await sdk.collectMetrics();
    const metric = collected.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === 'tessera.auth.security_events');
    const points = (metric?.dataPoints ?? []) as DataPoint<number | Histogram>[];
    expect(points.find((point) => point.attributes.event === 'auth.sign-in.succeeded')?.value, 'counted on the telemetry').toBeGreaterThanOrEqual(1);
  });

  it('a failed sign-in: the subject of an existing account, none for an unknown identifier, never the identifier typed', async () => {
    const { service, lines, raw, subject } = await setup();
    await expect(service.signIn('ada@example.test', 'wrong password', { clientAddress: '198.51.100.1' })).rejects.toMatchObject({ status: 401 });
    await expect(service.signIn('nobody@example.test', PASSWORD)).rejects.toMatchObject({ status: 401 });
    expect(eventsOf(lines).map(({ event, subject: s, clientAddress }) => ({ event, subject: s, clientAddress }))).toEqual([
      { event: 'auth.sign-in.failed', subject, clientAddress: '198.51.100.1' },
      { event: 'auth.sign-in.failed', subject: undefined, clientAddress: undefined },
    ]);
    expect(raw.join('\n'), 'no identifier or password in the log').not.toMatch(/nobody@|wrong password|correct horse/);
  });

  it('throttling: a warning per refused sign-in', async () => {
    const { service, lines } = await setup();
    for (let i = 0; i < 2; i++) await expect(service.signIn('ada@example.test', 'wrong')).rejects.toMatchObject({ status: 401 });
    await expect(service.signIn('ada@example.test', 'wrong')).rejects.toMatchObject({ status: 429 });
    expect(eventsOf(lines).filter((line) => line.event === 'auth.sign-in.throttled')).toEqual([expect.objectContaining({ level: 'warn', dimension: 'account' })]);
  });

  it('a reused refresh token: a warning, then its session revoked for reuse', async () => {
    const { service, lines, subject } = await setup();
    const first = await service.signIn('ada@example.test', PASSWORD);
    await service.refresh(first.refreshToken);
    lines.length = 0;
    await expect(service.refresh(first.refreshToken)).rejects.toMatchObject({ status: 401 });
    const sid = payloadOf(first.accessToken).sid;
    expect(eventsOf(lines).map(({ level, event, sessionId, reason }) => ({ level, event, sessionId, reason }))).toEqual([
      { level: 'warn', event: 'auth.refresh-token.reused', sessionId: sid, reason: undefined },
      { level: 'info', event: 'auth.session.revoked', sessionId: sid, reason: 'reuse' },
    ]);
    expect(eventsOf(lines).every((line) => line.subject === subject)).toBe(true);
  });

  it('sessions revoked: sign-out, one from the list, the others, all', async () => {
    const { service, lines, subject } = await setup();
    const [before] = (await service.listSessions(subject)).map((session) => session.id);
    const [a, b, c] = [await service.signIn('ada@example.test', PASSWORD), await service.signIn('ada@example.test', PASSWORD), await service.signIn('ada@example.test', PASSWORD)];
    lines.length = 0;
    await service.signOut(a.refreshToken);
    await service.signOut(a.refreshToken); // already ended: nothing more to tell
    await service.revokeSession(subject, payloadOf(b.accessToken).sid);
    await service.revokeOtherSessions(subject, payloadOf(c.accessToken).sid);
    await service.revokeAllSessions(subject);
    expect(eventsOf(lines).map(({ event, reason, sessionId }) => ({ event, reason, sessionId }))).toEqual([
      { event: 'auth.session.revoked', reason: 'sign-out', sessionId: payloadOf(a.accessToken).sid },
      { event: 'auth.session.revoked', reason: 'revoked', sessionId: payloadOf(b.accessToken).sid },
      { event: 'auth.session.revoked', reason: 'others-revoked', sessionId: before },
      { event: 'auth.session.revoked', reason: 'all-revoked', sessionId: undefined },
    ]);
  });

  it('password changed (change and reset), e-mail changed, account disabled', async () => {
    const { service, accounts, mailer, lines, subject } = await setup();
    const mine = await service.signIn('ada@example.test', PASSWORD);
    await accounts.changePassword({ subject, sessionId: payloadOf(mine.accessToken).sid, currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    await accounts.requestPasswordReset('ada@example.test');
    await accounts.settled();
    await accounts.resetPassword(tokenOf(mailer.sent.at(-1)), PASSWORD);
    await accounts.requestEmailChange({ subject, currentPassword: PASSWORD, newEmail: 'ada@new.example.test' });
    await accounts.settled();
    await accounts.confirmEmailChange(tokenOf(mailer.sent.at(-1)));
    await accounts.disableAccount(subject);
    const told = eventsOf(lines).filter((line) => line.event !== 'auth.session.revoked' && line.event !== 'auth.sign-in.succeeded');
    expect(told.map(({ event, via, subject: s }) => ({ event, via, subject: s }))).toEqual([
      { event: 'auth.password.changed', via: 'change', subject },
      { event: 'auth.password.changed', via: 'reset', subject },
      { event: 'auth.email.changed', via: undefined, subject },
      { event: 'auth.account.disabled', via: undefined, subject },
    ]);
  });

  it('API keys: revoked through CREDENTIAL_REVOCATION, created through SECURITY_EVENTS by the app', async () => {
    const { invalidation, events, lines, subject } = await setup();
    events.record({ type: 'api-key.created', keyId: 'key_1', subject });
    await invalidation.apiKeyRevoked('key_1');
    expect(eventsOf(lines).map(({ event, keyId }) => ({ event, keyId }))).toEqual([
      { event: 'auth.api-key.created', keyId: 'key_1' },
      { event: 'auth.api-key.revoked', keyId: 'key_1' },
    ]);
  });

  it('never writes a token, a password or a mail link', async () => {
    const { service, accounts, mailer, raw } = await setup();
    const pair = await service.signIn('ada@example.test', PASSWORD);
    const next = await service.refresh(pair.refreshToken);
    await expect(service.refresh(pair.refreshToken)).rejects.toMatchObject({ status: 401 });
    await accounts.requestPasswordReset('ada@example.test');
    await accounts.settled();
    const link = tokenOf(mailer.sent.at(-1));
    await accounts.resetPassword(link, NEW_PASSWORD);
    const log = raw.join('\n');
    for (const secret of [pair.accessToken, pair.refreshToken, next.accessToken, next.refreshToken, link, PASSWORD, NEW_PASSWORD]) {
      expect(log.includes(secret), `a secret in the log: ${secret.slice(0, 6)}…`).toBe(false);
    }
    expect(log, 'no link').not.toMatch(/https?:\/\//);
  });
});
