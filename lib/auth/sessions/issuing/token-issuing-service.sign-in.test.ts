import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../../../common/clock.js';
import { hashPassword } from '../../credentials/password/index.js';
import type { PasswordHasher } from '../../credentials/password/index.js';
import { InMemoryCredentialStore } from './in-memory-credential-store.js';
import { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
import { hashRefreshToken } from './hash-refresh-token.js';
import {
  ALICE,
  BOB,
  ClaimsSchema,
  RecordingSigner,
  T0_MS,
  createHarness,
  expectInvalidCredentials,
  expectServerFault,
  rejectionOf,
  stubPhc,
} from './issuing-fixtures.test-helper.js';
import type { Claims } from './issuing-fixtures.test-helper.js';
import { TokenIssuingService } from './token-issuing-service.js';

const BASE64URL_43 = /^[A-Za-z0-9_-]{43}$/;

describe('signIn', () => {
  it('returns a token pair and starts a new family stored by hash', async () => {
    const { service, store, signer } = createHarness();
    const pair = await service.signIn(ALICE.identifier, ALICE.password);

    expect(pair.refreshToken).toMatch(BASE64URL_43);
    expect(pair.refreshTokenExpiresAt).toEqual(new Date(T0_MS + 3600_000));
    expect(pair.accessTokenExpiresAt).toEqual(new Date(T0_MS + 900_000));
    expect(pair.accessToken).toBe(`access:${ALICE.subject}:${JSON.stringify({ sub: ALICE.subject, roles: ALICE.roles })}`);
    // notAfter: the session's absolute end, 30 days (the default sessionMaxAge) after sign-in.
    expect(signer.calls).toEqual([{ claims: { sub: ALICE.subject, roles: [...ALICE.roles] }, subject: ALICE.subject, notAfter: new Date(T0_MS + 30 * 86_400_000) }]);

    const records = store.records();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({
      tokenHash: hashRefreshToken(pair.refreshToken),
      subject: ALICE.subject,
      expiresAt: new Date(T0_MS + 3600_000),
      rotatedAt: null,
      revokedAt: null,
    });
    expect(records[0]?.familyId).toEqual(expect.any(String));
  });

  it('starts a distinct family and token on every sign-in', async () => {
    const { service, store } = createHarness();
    const a = await service.signIn(ALICE.identifier, ALICE.password);
    const b = await service.signIn(ALICE.identifier, ALICE.password);
    expect(a.refreshToken).not.toBe(b.refreshToken);
    const [first, second] = store.records();
    expect(first?.familyId).not.toBe(second?.familyId);
  });

  it('passes the identifier to the credential store (the in-memory one trims and ignores case)', async () => {
    const { service } = createHarness();
    await expect(service.signIn('  ALICE@acme.TEST ', ALICE.password)).resolves.toMatchObject({ refreshToken: expect.stringMatching(BASE64URL_43) });
  });

  it('verifies an unknown identifier against the dummy hash, exactly once, then refuses', async () => {
    const { service, verifier, store } = createHarness();
    expectInvalidCredentials(await rejectionOf(service.signIn('nobody@acme.test', 'some-password')));
    expect(verifier.dummyHashCalls).toBe(1);
    expect(verifier.verifyCalls).toEqual([{ password: 'some-password', phc: verifier.dummy }]);
    expect(store.records()).toHaveLength(0);
  });

  it('refuses a wrong password after verifying it against the account hash, without the dummy', async () => {
    const { service, verifier, store } = createHarness();
    expectInvalidCredentials(await rejectionOf(service.signIn(ALICE.identifier, 'wrong-password')));
    expect(verifier.dummyHashCalls).toBe(0);
    expect(verifier.verifyCalls).toEqual([{ password: 'wrong-password', phc: stubPhc(ALICE.password) }]);
    expect(store.records()).toHaveLength(0);
  });

  it('refuses a disabled account (loadClaims empty) even with the right password', async () => {
    const { service, credentials, verifier, store } = createHarness();
    credentials.disable(ALICE.subject);
    expectInvalidCredentials(await rejectionOf(service.signIn(ALICE.identifier, ALICE.password)));
    expect(verifier.verifyCalls).toHaveLength(1);
    expect(store.records()).toHaveLength(0);
  });

  it('fails identically for unknown identifier, wrong password and disabled account', async () => {
    const { service, credentials } = createHarness();
    credentials.disable(BOB.subject);
    const errors = [
      await rejectionOf(service.signIn('nobody@acme.test', 'pw')),
      await rejectionOf(service.signIn(ALICE.identifier, 'wrong-password')),
      await rejectionOf(service.signIn(BOB.identifier, BOB.password)),
    ];
    for (const error of errors) expectInvalidCredentials(error);
    const shapes = errors.map((error) => {
      const e = error as Error & Record<string, unknown>;
      return { ctor: e.constructor, name: e.name, message: e.message, status: e['status'], keys: Object.keys(e).sort() };
    });
    expect(shapes[1]).toEqual(shapes[0]);
    expect(shapes[2]).toEqual(shapes[0]);
  });

  it('never puts the password or identifier in the error', async () => {
    const { service } = createHarness();
    const error = (await rejectionOf(service.signIn(ALICE.identifier, 'hunter2-secret'))) as Error;
    expect(`${error.message} ${error.stack ?? ''}`).not.toContain('hunter2-secret');
    expect(error.message).not.toContain(ALICE.identifier);
  });

  it('throws a plain Error (not a 401) without claim values when the claims fail the schema', async () => {
    const { service, credentials, store } = createHarness();
    credentials.setClaims(ALICE.subject, { sub: 'leaky-subject-value', roles: 'leaky-role-value' } as unknown as Claims);
    const error = await rejectionOf(service.signIn(ALICE.identifier, ALICE.password));
    expectServerFault(error);
    expect((error as Error).message).toMatch(/claims schema/);
    expect((error as Error).message).not.toContain('leaky');
    expect((error as Error).message).not.toContain(ALICE.password);
    expect(store.records()).toHaveLength(0);
  });

  it('throws a plain Error when the claims schema does not produce an object', async () => {
    const clock = createManualClock(T0_MS);
    const credentials = new InMemoryCredentialStore<string>([{ identifier: 'a', subject: 's', passwordHash: stubPhc('pw'), claims: 'just-a-string' }]);
    const service = new TokenIssuingService<string>({
      claimsSchema: z.string(),
      credentialStore: credentials,
      refreshTokenStore: new InMemoryRefreshTokenStore(clock),
      accessTokens: { sign: async () => ({ token: 't', expiresAt: new Date(0) }) },
      clock,
      passwordVerifier: { verify: async (password, phc) => phc === stubPhc(password), dummyHash: async () => 'dummy' },
    });
    expectServerFault(await rejectionOf(service.signIn('a', 'pw')));
  });
});

describe('signIn with the default Argon2id verifier', () => {
  it('accepts the right password and refuses a wrong one or an unknown identifier', async () => {
    const clock = createManualClock(T0_MS);
    const credentials = new InMemoryCredentialStore<Claims>([
      { identifier: ALICE.identifier, subject: ALICE.subject, passwordHash: await hashPassword(ALICE.password), claims: { sub: ALICE.subject, roles: [] } },
    ]);
    const service = new TokenIssuingService<Claims>({
      claimsSchema: ClaimsSchema,
      credentialStore: credentials,
      refreshTokenStore: new InMemoryRefreshTokenStore(clock),
      accessTokens: new RecordingSigner(clock),
      clock,
    });
    await expect(service.signIn(ALICE.identifier, ALICE.password)).resolves.toHaveProperty('refreshToken');
    expectInvalidCredentials(await rejectionOf(service.signIn(ALICE.identifier, 'wrong')));
    expectInvalidCredentials(await rejectionOf(service.signIn('nobody@acme.test', ALICE.password)));
  });

  it('uses a given passwordHasher for both verification and the dummy hash', async () => {
    const calls: string[] = [];
    const hasher: PasswordHasher = {
      hash: async (password) => {
        calls.push('hash');
        return stubPhc(password);
      },
      verify: async (password, phc) => {
        calls.push(`verify:${phc}`);
        return phc === stubPhc(password);
      },
    };
    const clock = createManualClock(T0_MS);
    const service = new TokenIssuingService<Claims>({
      claimsSchema: ClaimsSchema,
      credentialStore: new InMemoryCredentialStore<Claims>(),
      refreshTokenStore: new InMemoryRefreshTokenStore(clock),
      accessTokens: new RecordingSigner(clock),
      clock,
      passwordHasher: hasher,
    });
    expectInvalidCredentials(await rejectionOf(service.signIn('nobody', 'pw')));
    // The dummy is a real hash made by this hasher, then verified against.
    expect(calls[0]).toBe('hash');
    expect(calls[1]).toMatch(/^verify:stub-phc:[0-9a-f]{64}$/);
  });
});
