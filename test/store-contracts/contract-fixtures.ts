import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { systemClock, type Clock } from '../../lib/index.js';
import { InMemoryCredentialStore, TokenIssuingService, type AccessTokenSigner, type RefreshTokenStore } from '../../lib/auth/sessions/issuing/index.js';

/** Start of every contract test's manual clock: a fixed, whole-second instant. */
export const T0 = Date.parse('2026-11-21T12:00:00Z');

/** The claims the contract accounts carry. */
export const ContractClaims = z.object({ sub: z.string(), roles: z.array(z.string()) });
export type ContractClaims = z.output<typeof ContractClaims>;

/** A random 64-hex "SHA-256" so tests never collide with each other's rows on a shared database. */
export function randomHash(): string {
  return randomBytes(32).toString('hex');
}

/** A unique id for subjects, families and keys, so a shared database needs no cleanup between tests. */
export function uniqueId(prefix: string): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

/** An access-token signer that signs nothing: refresh logic is under test, not JWTs. */
export function fakeAccessTokens(clock: Clock): AccessTokenSigner<ContractClaims> {
  return { sign: async (_claims, subject) => ({ token: `access-for-${subject}`, expiresAt: new Date(clock.now() + 900_000) }) };
}

/** Something that can be awaited, sync or async, like the store contracts allow. */
export type MaybePromise<T> = T | Promise<T>;

/**
 * A token-issuing service on the system clock for refresh chains: `subjects` can be issued tokens
 * (no passwords), refresh tokens live in `refreshTokenStore`, access tokens are fakes.
 *
 * @example
 * const service = chainService([uniqueId('chain')], new PostgresRefreshTokenStore(pool));
 */
export function chainService(subjects: readonly string[], refreshTokenStore: RefreshTokenStore): TokenIssuingService<ContractClaims> {
  return new TokenIssuingService<ContractClaims>({
    claimsSchema: ContractClaims,
    credentialStore: new InMemoryCredentialStore<ContractClaims>(subjects.map((subject) => ({ identifier: `${subject}@x.test`, subject, passwordHash: 'unused', claims: { sub: subject, roles: [] } }))),
    refreshTokenStore,
    accessTokens: fakeAccessTokens(systemClock),
    clock: systemClock,
    passwordVerifier: { verify: async () => false, dummyHash: async () => 'unused' },
  });
}
