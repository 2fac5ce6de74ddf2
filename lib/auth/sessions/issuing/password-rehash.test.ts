// A successful sign-in stores a fresh hash when the stored one was made with other Argon2id
// parameters than the configured ones (ASVS 5.0 11.2.2); a failed sign-in does exactly the work
// it did before (one verification, no hash) and answers the same. Real Argon2id (the wasm
// backend) at small costs, so the parameters in the PHC strings are real.
import { beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../common/clock.js';
import { createPasswordHasher, parseArgon2idPhc, type Argon2Parameters, type Argon2PasswordHasher, type PasswordHasher } from '../../credentials/password/index.js';
import { ALICE, ClaimsSchema, RecordingSigner, T0_MS, type Claims } from './issuing-fixtures.test-helper.js';
import { InMemoryCredentialStore } from './in-memory-credential-store.js';
import { InMemoryRefreshTokenStore } from './in-memory-refresh-token-store.js';
import { TokenIssuingService } from './token-issuing-service.js';

const OLD: Argon2Parameters = { memoryCost: 1024, timeCost: 1, parallelism: 1 };
const CONFIGURED: Argon2Parameters = { memoryCost: 2048, timeCost: 2, parallelism: 1 };
let old: Argon2PasswordHasher;
let configured: Argon2PasswordHasher;

beforeAll(async () => {
  old = await createPasswordHasher({ backend: 'wasm', parameters: OLD });
  configured = await createPasswordHasher({ backend: 'wasm', parameters: CONFIGURED });
});

/** The configured hasher, counting its calls (what a request's time is made of). */
function counting(hasher: Argon2PasswordHasher): PasswordHasher & { readonly parameters: Argon2Parameters; readonly calls: { hash: number; verify: number } } {
  const calls = { hash: 0, verify: 0 };
  return {
    parameters: hasher.parameters,
    calls,
    hash: async (password) => (calls.hash++, hasher.hash(password)),
    verify: async (password, phc) => (calls.verify++, hasher.verify(password, phc)),
  };
}

/** A service whose hasher has the configured parameters, alice's password stored with `storedWith`'s. */
async function setup(storedWith: Argon2PasswordHasher, credentialsOf: (store: InMemoryCredentialStore<Claims>) => InMemoryCredentialStore<Claims> = (store) => store) {
  const clock = createManualClock(T0_MS);
  const stored = await storedWith.hash(ALICE.password);
  const credentials = new InMemoryCredentialStore<Claims>([{ identifier: ALICE.identifier, subject: ALICE.subject, passwordHash: stored, claims: { sub: ALICE.subject, roles: ['owner'] } }]);
  const hasher = counting(configured);
  const service = new TokenIssuingService<Claims>({
    claimsSchema: ClaimsSchema,
    credentialStore: credentialsOf(credentials),
    refreshTokenStore: new InMemoryRefreshTokenStore(clock),
    accessTokens: new RecordingSigner(clock),
    clock,
    passwordHasher: hasher,
  });
  const hashNow = async () => (await credentials.findByIdentifier(ALICE.identifier))?.passwordHash as string;
  return { service, stored, hasher, hashNow };
}

describe('rehashing at sign-in (ASVS 11.2.2)', () => {
  it('a successful sign-in stores a fresh hash with the configured parameters when the stored one has others', async () => {
    const { service, stored, hashNow } = await setup(old);
    await service.signIn(ALICE.identifier, ALICE.password);
    const now = await hashNow();
    expect(now, 'the stale hash is still stored').not.toBe(stored);
    expect(parseArgon2idPhc(now).parameters, "the new hash's parameters").toEqual(CONFIGURED);
    expect(await configured.verify(ALICE.password, now), 'the new hash verifies the password').toBe(true);
  });

  it('rehashes once: the next sign-in verifies against the fresh hash and keeps it', async () => {
    const { service, hasher, hashNow } = await setup(old);
    await service.signIn(ALICE.identifier, ALICE.password);
    const fresh = await hashNow();
    expect(hasher.calls, 'the first sign-in: one verification, one fresh hash').toEqual({ hash: 1, verify: 1 });
    await service.signIn(ALICE.identifier, ALICE.password);
    expect(await hashNow(), 'rehashed again').toBe(fresh);
    expect(hasher.calls, 'the second sign-in: one more verification, no hash').toEqual({ hash: 1, verify: 2 });
  });

  it('keeps a hash made with the configured parameters, hashing nothing', async () => {
    const { service, stored, hasher, hashNow } = await setup(configured);
    await service.signIn(ALICE.identifier, ALICE.password);
    expect(await hashNow()).toBe(stored);
    expect(hasher.calls, 'one verification, no hash').toEqual({ hash: 0, verify: 1 });
  });

  it('a failed sign-in with a stale hash answers the same 401, changes nothing and does the same work as one with a current hash', async () => {
    const stale = await setup(old);
    const current = await setup(configured);
    for (const { service } of [stale, current]) await expect(service.signIn(ALICE.identifier, 'wrong-password')).rejects.toMatchObject({ status: 401, message: 'Invalid credentials' });
    expect(await stale.hashNow(), 'the stale hash after a failed sign-in').toBe(stale.stored);
    expect(stale.hasher.calls, 'the work of a failed sign-in with a stale hash').toEqual({ hash: 0, verify: 1 });
    expect(stale.hasher.calls, 'the same as with a current hash').toEqual(current.hasher.calls);
  });

  it('the sign-in succeeds when the store fails to take the fresh hash (the old one still verifies)', async () => {
    const failing = (store: InMemoryCredentialStore<Claims>) =>
      Object.assign(Object.create(store) as InMemoryCredentialStore<Claims>, {
        findByIdentifier: (identifier: string) => store.findByIdentifier(identifier),
        loadClaims: (subject: string) => store.loadClaims(subject),
        replacePasswordHash: async () => {
          throw new Error('store down');
        },
      });
    const { service, stored, hashNow } = await setup(old, failing);
    await expect(service.signIn(ALICE.identifier, ALICE.password), 'the sign-in').resolves.toMatchObject({ accessToken: expect.any(String) });
    expect(await hashNow()).toBe(stored);
  });
});
