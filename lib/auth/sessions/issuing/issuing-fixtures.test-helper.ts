/**
 * Test-only fixtures for the issuing service: fast password and signer stubs that record their
 * calls, a claims schema, seeded accounts, and a harness wiring them to any store variant.
 * Not exported from the package.
 */
import { expect } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../../../common/clock.js';
import type { ManualClock } from '../../../common/clock.js';
import { UnauthorizedException, isHttpException } from '../../../http/http-exception.js';
import type { AccessTokenSigner } from './access-token-signer.js';
import { createInMemoryRefreshTokenStore } from './in-memory-store-variants.test-helper.js';
import type { InMemoryRefreshTokenStoreVariant } from './in-memory-store-variants.test-helper.js';
import { InMemoryCredentialStore } from './in-memory-credential-store.js';
import type { PasswordVerifier } from './password-verifier.js';
import type { RefreshTokenStore } from './refresh-token-store.js';
import { TokenIssuingService } from './token-issuing-service.js';

/** The clock's start. @example createManualClock(T0_MS) */
export const T0_MS = Date.parse('2026-01-01T00:00:00Z');

/** The tutorial claims schema. @example ClaimsSchema.parse({ sub: 'u', roles: [] }) */
export const ClaimsSchema = z.object({ sub: z.string(), roles: z.array(z.string()) });
/** @example const c: Claims = { sub: 'u', roles: [] }; */
export type Claims = z.output<typeof ClaimsSchema>;

/** The stub "PHC" of a password: verification is string equality, so tests run in microseconds. @example stubPhc('pw') */
export function stubPhc(password: string): string {
  return `stub-phc:${password}`;
}

/** Seeded accounts. @example ALICE.identifier */
export const ALICE = { identifier: 'alice@acme.test', subject: 'u_alice', password: 'alice-password', roles: ['owner'] } as const;
/** @example BOB.subject */
export const BOB = { identifier: 'bob@acme.test', subject: 'u_bob', password: 'bob-password', roles: ['member'] } as const;

/** A password verifier stub that records every call. @example const v = new RecordingPasswordVerifier(); */
export class RecordingPasswordVerifier implements PasswordVerifier {
  readonly verifyCalls: { password: string; phc: string }[] = [];
  dummyHashCalls = 0;
  /** What dummyHash answers: a stub PHC no password matches. */
  readonly dummy = 'stub-phc-dummy:no-password-matches-this';

  async verify(password: string, phc: string): Promise<boolean> {
    this.verifyCalls.push({ password, phc });
    return phc === stubPhc(password);
  }

  async dummyHash(): Promise<string> {
    this.dummyHashCalls++;
    return this.dummy;
  }
}

/** An access-token signer stub: the token spells out subject and claims so tests can read them back. @example new RecordingSigner(clock) */
export class RecordingSigner implements AccessTokenSigner<Claims> {
  readonly calls: { claims: Claims; subject: string; notAfter: Date | undefined }[] = [];
  constructor(private readonly clock: ManualClock) {}

  async sign(claims: Claims & Record<string, unknown>, subject: string, _sessionId?: string, notAfter?: Date): Promise<{ token: string; expiresAt: Date }> {
    this.calls.push({ claims: structuredClone(claims), subject, notAfter });
    return { token: `access:${subject}:${JSON.stringify(claims)}`, expiresAt: new Date(this.clock.now() + 900_000) };
  }
}

/** Everything a service test needs. @example const h = createHarness({ rotate: true, revokeFamily: true }); */
export interface Harness<Store extends RefreshTokenStore = InMemoryRefreshTokenStoreVariant> {
  readonly service: TokenIssuingService<Claims>;
  readonly clock: ManualClock;
  readonly store: Store;
  readonly credentials: InMemoryCredentialStore<Claims>;
  readonly verifier: RecordingPasswordVerifier;
  readonly signer: RecordingSigner;
}

/** Options of {@link createHarness}. @example { rotate: false, revokeFamily: true, refreshReuseGraceSeconds: 30 } */
export interface HarnessOptions {
  readonly rotate?: boolean;
  readonly revokeFamily?: boolean;
  readonly refreshReuseGraceSeconds?: number;
  readonly refreshTokenTtl?: number;
  readonly sessionMaxAge?: number;
}

/**
 * A service over a manual clock, the two seeded accounts and an in-memory store variant.
 *
 * @example
 * const { service, clock, store } = createHarness({ rotate: false, revokeFamily: false });
 */
export function createHarness(options: HarnessOptions = {}): Harness {
  const clock = createManualClock(T0_MS);
  const store = createInMemoryRefreshTokenStore({ rotate: options.rotate ?? true, revokeFamily: options.revokeFamily ?? true, clock });
  return createHarnessWithStore(store, clock, options);
}

/**
 * Like {@link createHarness}, with a store of the test's making (a spy, a failing store).
 *
 * @example
 * const h = createHarnessWithStore(spyStore, clock);
 */
export function createHarnessWithStore<Store extends RefreshTokenStore>(
  store: Store,
  clock: ManualClock,
  options: HarnessOptions = {},
): Harness<Store> {
  const credentials = new InMemoryCredentialStore<Claims>(
    [ALICE, BOB].map((account) => ({
      identifier: account.identifier,
      subject: account.subject,
      passwordHash: stubPhc(account.password),
      claims: { sub: account.subject, roles: [...account.roles] },
    })),
  );
  const verifier = new RecordingPasswordVerifier();
  const signer = new RecordingSigner(clock);
  const service = new TokenIssuingService<Claims>({
    claimsSchema: ClaimsSchema,
    credentialStore: credentials,
    refreshTokenStore: store,
    accessTokens: signer,
    refreshTokenTtl: options.refreshTokenTtl ?? 3600,
    sessionMaxAge: options.sessionMaxAge,
    refreshReuseGraceSeconds: options.refreshReuseGraceSeconds ?? 0,
    clock,
    passwordVerifier: verifier,
  });
  return { service, clock, store, credentials, verifier, signer };
}

/** The four store variants, named for `describe.each`. @example describe.each(STORE_VARIANTS)('%s', (_, variant) => {}) */
export const STORE_VARIANTS: readonly (readonly [string, { rotate: boolean; revokeFamily: boolean }])[] = [
  ['rotate + revokeFamily', { rotate: true, revokeFamily: true }],
  ['rotate only', { rotate: true, revokeFamily: false }],
  ['revokeFamily only', { rotate: false, revokeFamily: true }],
  ['basic (neither)', { rotate: false, revokeFamily: false }],
];

/**
 * Awaits a promise expected to reject and returns the rejection, failing if it resolves.
 *
 * @example
 * const error = await rejectionOf(service.refresh('garbage'));
 */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/**
 * Asserts the one client-facing refusal: an UnauthorizedException, status 401, message
 * `Invalid credentials`, and nothing else on it.
 *
 * @example
 * expectInvalidCredentials(await rejectionOf(service.refresh(token)));
 */
export function expectInvalidCredentials(error: unknown): void {
  expect(error).toBeInstanceOf(UnauthorizedException);
  const http = error as UnauthorizedException;
  expect(http.constructor).toBe(UnauthorizedException);
  expect(http.status).toBe(401);
  expect(http.message).toBe('Invalid credentials');
  expect(http.details).toBeUndefined();
  expect(http.headers).toBeUndefined();
}

/**
 * Asserts a server fault: an Error that is not an HttpException (so it becomes a 500).
 *
 * @example
 * expectServerFault(await rejectionOf(service.issueTokens('nobody')));
 */
export function expectServerFault(error: unknown): void {
  expect(error).toBeInstanceOf(Error);
  expect(isHttpException(error)).toBe(false);
}
