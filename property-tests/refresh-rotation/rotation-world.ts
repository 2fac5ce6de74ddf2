// The system under test (the real TokenIssuingService over an in-memory store variant, every
// store call going through fast-check's scheduler) side by side with the model. `apply` runs one
// operation on both and asserts that they agree, plus the named properties.
import { sha256 } from '@noble/hashes/sha2.js';
import type fc from 'fast-check';
import { expect } from 'vitest';
import { z } from 'zod';
import { createManualClock } from '../../lib/common/clock.js';
import { UnauthorizedException, isHttpException } from '../../lib/http/http-exception.js';
import { InMemoryCredentialStore, TokenIssuingService } from '../../lib/auth/sessions/issuing/index.js';
import type { StoredRefreshToken, TokenPair } from '../../lib/auth/sessions/issuing/index.js';
import { createInMemoryRefreshTokenStore, type InMemoryRefreshTokenStoreVariant } from '../../lib/auth/sessions/issuing/in-memory-store-variants.test-helper.js';
import { RotationModel } from './rotation-model.js';
import type { AccountStatus, Answer } from './rotation-model.js';
import { TTL_SECONDS, USER_COUNT } from './rotation-operations.js';
import type { Operation, TokenPick } from './rotation-operations.js';
import { scheduledStore } from './scheduled-store.js';

const T0 = Date.parse('2026-01-01T00:00:00Z');
const ClaimsSchema = z.object({ sub: z.string(), roles: z.array(z.string()), version: z.number().int() });
type Claims = z.output<typeof ClaimsSchema>;

/** Which store variant and grace window a run uses. @example const c: WorldConfig = { rotate: false, revokeFamily: true, graceSeconds: 30 }; */
export interface WorldConfig {
  readonly rotate: boolean;
  readonly revokeFamily: boolean;
  readonly graceSeconds: number;
}

/** How often interesting branches were hit, to show the generators reach them. @example expect(coverage.reuse).toBeGreaterThan(0); */
export interface Coverage {
  successes: number;
  reuse: number;
  withinGrace: number;
  expiredRefused: number;
  concurrentSingleWinner: number;
  concurrentWinnerThenReuse: number;
  orphansRevoked: number;
  raceRefreshFirst: number;
  raceRevocationFirst: number;
}

/** An empty coverage tally. @example const coverage = newCoverage(); */
export function newCoverage(): Coverage {
  return { successes: 0, reuse: 0, withinGrace: 0, expiredRefused: 0, concurrentSingleWinner: 0, concurrentWinnerThenReuse: 0, orphansRevoked: 0, raceRefreshFirst: 0, raceRevocationFirst: 0 };
}

/** SHA-256 hex, computed here rather than with the service's helper, to find tokens in the store. */
function hashOf(raw: string): string {
  return Array.from(sha256(new TextEncoder().encode(raw)), (b) => b.toString(16).padStart(2, '0')).join('');
}

const subjectOf = (user: number): string => `u${user}`;
const passwordOf = (user: number): string => `password-of-u${user}`;
// Mixed case and padding: the credential store normalizes, the service passes it through.
const identifierOf = (user: number): string => ` User${user}@Example.test `;

type Settled<T> = { readonly outcome: 'success'; readonly value: T } | { readonly outcome: Exclude<Answer, 'success'>; readonly error: unknown };

/**
 * The service and the model side by side.
 *
 * @example
 * const world = new RotationWorld({ rotate: true, revokeFamily: true, graceSeconds: 0 }, scheduler, newCoverage());
 * for (const op of operations) await world.apply(op);
 */
export class RotationWorld {
  readonly clock = createManualClock(T0);
  readonly store: InMemoryRefreshTokenStoreVariant;
  readonly credentials: InMemoryCredentialStore<Claims>;
  /** Replaced when a race is resolved to one of its possible orders. */
  model: RotationModel;
  readonly service: TokenIssuingService<Claims>;
  readonly verifier = { verifyCalls: 0, dummyCalls: 0 };
  /** Model family number -> the store's familyId string. */
  readonly #familyIds = new Map<number, string>();

  constructor(
    readonly config: WorldConfig,
    readonly scheduler: fc.Scheduler,
    readonly coverage: Coverage,
  ) {
    this.store = createInMemoryRefreshTokenStore({ rotate: config.rotate, revokeFamily: config.revokeFamily, clock: this.clock });
    const subjects = Array.from({ length: USER_COUNT }, (_, i) => subjectOf(i));
    this.model = new RotationModel(subjects, T0, TTL_SECONDS * 1000, config.graceSeconds, config.revokeFamily);
    this.credentials = new InMemoryCredentialStore<Claims>(
      Array.from({ length: USER_COUNT }, (_, i) => ({
        identifier: identifierOf(i).trim().toLowerCase(),
        subject: subjectOf(i),
        passwordHash: `stub-phc:${passwordOf(i)}`,
        claims: { sub: subjectOf(i), roles: ['member'], version: 0 },
      })),
    );
    const verifier = this.verifier;
    const clock = this.clock;
    this.service = new TokenIssuingService<Claims>({
      claimsSchema: ClaimsSchema,
      credentialStore: this.credentials,
      refreshTokenStore: scheduledStore(this.store, scheduler),
      // The stub writes subject and claims version into the "access token" so the test can
      // check that refresh signs the freshly loaded claims.
      accessTokens: {
        sign: async (claims, subject) => ({ token: JSON.stringify({ sub: subject, version: claims.version }), expiresAt: new Date(clock.now() + 900_000) }),
      },
      refreshTokenTtl: TTL_SECONDS,
      refreshReuseGraceSeconds: config.graceSeconds,
      clock,
      // Argon2id costs ~55 ms; a string comparison keeps hundreds of runs fast.
      passwordVerifier: {
        verify: async (password, phc) => {
          verifier.verifyCalls++;
          return phc === `stub-phc:${password}`;
        },
        dummyHash: async () => {
          verifier.dummyCalls++;
          return 'stub-phc-dummy:matches-no-password';
        },
      },
    });
  }

  /** Runs one operation on the service and the model and checks they agree. */
  async apply(op: Operation): Promise<void> {
    const orphansBefore = this.#orphanCount();
    await this.#dispatch(op);
    // Only a lost race between concurrent refreshes may leave an (revoked) orphan behind.
    if (op.kind !== 'concurrentRefresh' && op.kind !== 'refreshRacingRevocation') expect(this.#orphanCount()).toBe(orphansBefore);
    this.checkStoreMatchesModel();
  }

  async #dispatch(op: Operation): Promise<void> {
    switch (op.kind) {
      case 'signIn':
        return this.#signIn(op.user, op.identifier, op.passwordOk);
      case 'issueTokens':
        return this.#issueTokens(op.user);
      case 'refresh':
        return this.#refresh(this.#resolve(op.pick));
      case 'concurrentRefresh':
        return this.#concurrentRefresh(this.#resolve(op.pick), op.count);
      case 'rotateThenReplay': {
        const raw = this.#resolve(op.pick);
        await this.#refresh(raw);
        this.clock.advance(op.delayMs);
        this.model.now += op.delayMs;
        return this.#refresh(raw);
      }
      case 'signOut':
        return this.#signOut(this.#resolve(op.pick), op.twice);
      case 'refreshRacingRevocation':
        return this.#refreshRacingRevocation(this.#resolve(op.pick), op.revoker);
      case 'revokeAllSessions':
        await this.scheduler.waitFor(this.service.revokeAllSessions(subjectOf(op.user)));
        this.model.revokeAll(subjectOf(op.user));
        return;
      case 'setAccount':
        return this.#setAccount(op.user, op.status);
      case 'advance':
        this.clock.advance(op.ms);
        this.model.now += op.ms;
        return;
    }
  }

  /** The store agrees with the model on every issued token; anything else it holds is a revoked orphan. */
  checkStoreMatchesModel(model: RotationModel = this.model): void {
    const records = this.store.records();
    const byHash = new Map(records.map((r) => [r.tokenHash, r]));
    const modelHashes = new Set<string>();
    const storeFamilyToModel = new Map<string, number>();
    for (const token of model.tokens.values()) {
      const hash = hashOf(token.raw);
      modelHashes.add(hash);
      const record = byHash.get(hash);
      expect(record, 'every issued refresh token is stored under its SHA-256').toBeDefined();
      if (record === undefined) continue;
      expect(record.subject).toBe(token.subject);
      expect(record.expiresAt.getTime()).toBe(token.expiresAt);
      expect(record.rotatedAt?.getTime() ?? null, 'rotatedAt').toBe(token.rotatedAt);
      expect(record.revokedAt?.getTime() ?? null, 'revokedAt').toBe(token.revokedAt);
      expect(token.successors, 'at most one successor per token').toBeLessThanOrEqual(1);
      // Families: one store familyId per model family, and the other way round.
      const familyId = record.familyId;
      expect(typeof familyId).toBe('string');
      const known = this.#familyIds.get(token.family);
      if (known === undefined) this.#familyIds.set(token.family, familyId as string);
      else expect(familyId).toBe(known);
      const owner = storeFamilyToModel.get(familyId as string);
      if (owner === undefined) storeFamilyToModel.set(familyId as string, token.family);
      else expect(owner).toBe(token.family);
    }
    const orphans = records.filter((r) => !modelHashes.has(r.tokenHash));
    for (const orphan of orphans) {
      // A successor stored by a refresh that then lost the compare-and-set: nobody holds it,
      // and it must never be usable.
      expect(orphan.revokedAt, 'orphaned successors are revoked').not.toBeNull();
      expect(orphan.rotatedAt).toBeNull();
    }
    // With an atomic rotate, a lost race stores nothing.
    if (this.config.rotate) expect(orphans).toHaveLength(0);
  }

  #resolve(pick: TokenPick): string {
    const issued = this.model.issued;
    if (pick.kind === 'garbage' || issued.length === 0) return pick.kind === 'garbage' ? pick.value : 'no-token-issued-yet';
    return issued[issued.length - 1 - (pick.fromNewest % issued.length)]!;
  }

  async #settle<T>(promise: Promise<T>): Promise<Settled<T>> {
    try {
      return { outcome: 'success', value: await this.scheduler.waitFor(promise) };
    } catch (error) {
      return { outcome: this.#classify(error), error };
    }
  }

  #classify(error: unknown): Exclude<Answer, 'success'> {
    if (isHttpException(error)) {
      // The only client-facing refusal there is.
      expect(error).toBeInstanceOf(UnauthorizedException);
      expect(error.status).toBe(401);
      expect(error.message).toBe('Invalid credentials');
      return 'unauthorized';
    }
    expect(error).toBeInstanceOf(Error);
    const message = (error as Error).message;
    for (const raw of this.model.issued) expect(message).not.toContain(raw);
    expect(message).not.toContain('password-of');
    return 'server-error';
  }

  #checkPair(pair: TokenPair, subject: string): void {
    expect(pair.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(pair.refreshTokenExpiresAt.getTime()).toBe(this.model.now + TTL_SECONDS * 1000);
    expect(JSON.parse(pair.accessToken)).toEqual({ sub: subject, version: this.model.user(subject).claimsVersion });
  }

  async #signIn(user: number, identifier: 'known' | 'unknown', passwordOk: boolean): Promise<void> {
    const subject = subjectOf(user);
    const before = { ...this.verifier };
    const result = await this.#settle(
      this.service.signIn(identifier === 'known' ? identifierOf(user) : `nobody${user}@example.test`, passwordOk ? passwordOf(user) : 'wrong-password'),
    );
    const expected: Answer = identifier === 'unknown' || !passwordOk ? 'unauthorized' : this.model.predictIssue(subject, true);
    expect(result.outcome).toBe(expected);
    // Exactly one real verification per sign-in; against the dummy hash for an unknown identifier.
    expect(this.verifier.verifyCalls - before.verifyCalls).toBe(1);
    expect(this.verifier.dummyCalls - before.dummyCalls).toBe(identifier === 'unknown' ? 1 : 0);
    if (result.outcome === 'success') {
      this.#checkPair(result.value, subject);
      this.model.startFamily(result.value.refreshToken, subject);
      this.coverage.successes++;
    }
  }

  async #issueTokens(user: number | 'unknown'): Promise<void> {
    const subject = user === 'unknown' ? undefined : subjectOf(user);
    const result = await this.#settle(this.service.issueTokens(subject ?? 'u-nobody'));
    expect(result.outcome).toBe(this.model.predictIssue(subject, false));
    if (result.outcome === 'success' && subject !== undefined) {
      this.#checkPair(result.value, subject);
      this.model.startFamily(result.value.refreshToken, subject);
    }
  }

  async #refresh(raw: string): Promise<void> {
    const prediction = this.model.predictRefresh(raw);
    const stateBefore = this.model.stateOf(raw);
    const snapshotBefore = this.store.records();
    const result = await this.#settle(this.service.refresh(raw));
    expect(result.outcome, `refresh of a ${stateBefore} token`).toBe(prediction.outcome);
    if (result.outcome === 'success') {
      // Never a success with a revoked, rotated or expired token.
      expect(stateBefore).toBe('active');
      const token = this.model.tokens.get(raw)!;
      this.#checkPair(result.value, token.subject);
      this.model.rotate(raw, result.value.refreshToken);
      this.coverage.successes++;
    }
    if (stateBefore === 'expired') this.coverage.expiredRefused++;
    if (prediction.withinGrace) {
      // A replay inside the grace window revokes nothing (changes nothing at all).
      expect(this.store.records()).toEqual(snapshotBefore);
      this.coverage.withinGrace++;
    }
    if (prediction.reuse) {
      this.model.revokeAfterReuse(raw);
      this.#expectNoActiveTokenInReuseScope(raw);
      this.coverage.reuse++;
    }
  }

  async #concurrentRefresh(raw: string, count: number): Promise<void> {
    const prediction = this.model.predictRefresh(raw);
    const stateBefore = this.model.stateOf(raw);
    const orphansBefore = this.#orphanCount();
    const calls = Array.from({ length: count }, () => this.#settle(this.service.refresh(raw)));
    const results = await this.scheduler.waitFor(Promise.all(calls));
    const outcomes = results.map((r) => r.outcome);
    if (stateBefore === 'expired') this.coverage.expiredRefused++;

    if (prediction.outcome !== 'success') {
      // Not refreshable: every call behaves like a single refresh would.
      expect(outcomes).toEqual(Array.from({ length: count }, () => prediction.outcome));
      if (prediction.reuse) {
        this.model.revokeAfterReuse(raw);
        this.#expectNoActiveTokenInReuseScope(raw);
        this.coverage.reuse++;
      }
      if (prediction.withinGrace) this.coverage.withinGrace++;
      return;
    }

    // An active token refreshed N times at once: exactly one succeeds, N-1 get 401.
    expect(outcomes.filter((o) => o === 'success')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'unauthorized')).toHaveLength(count - 1);
    expect(stateBefore).toBe('active');
    const winner = results.find((r) => r.outcome === 'success');
    if (winner?.outcome !== 'success') throw new Error('unreachable');
    const token = this.model.tokens.get(raw)!;
    this.#checkPair(winner.value, token.subject);
    this.model.rotate(raw, winner.value.refreshToken);
    this.coverage.successes++;

    // A loser may have read the token after the winner rotated it. With no grace window that
    // is reuse (the spec's reason for the window); with one, the replay is within it. The
    // winner's successor being revoked tells which happened.
    const successor = this.store.records().find((r) => r.tokenHash === hashOf(winner.value.refreshToken));
    if (successor?.revokedAt != null) {
      expect(this.config.graceSeconds, 'reuse revocation during concurrent refresh needs grace 0').toBe(0);
      this.model.revokeAfterReuse(raw);
      this.#expectNoActiveTokenInReuseScope(raw);
      this.coverage.concurrentWinnerThenReuse++;
    } else {
      this.coverage.concurrentSingleWinner++;
    }
    this.coverage.orphansRevoked += this.#orphanCount() - orphansBefore;
  }

  async #signOut(raw: string, twice: boolean): Promise<void> {
    await this.scheduler.waitFor(this.service.signOut(raw));
    this.model.signOut(raw);
    if (twice) {
      // Idempotent: a second sign-out, even later, changes nothing.
      const after = this.store.records();
      await this.scheduler.waitFor(this.service.signOut(raw));
      expect(this.store.records()).toEqual(after);
    }
  }

  /**
   * A refresh racing a revocation of the same token (signOut) or of its subject
   * (revokeAllSessions). Whatever the interleaving, the result must be that of one of the two
   * orders, each run on a copy of the model: refresh then revocation, or revocation then
   * refresh. In particular a refresh never succeeds once the revocation has landed, and a
   * successor it stores is then revoked.
   */
  async #refreshRacingRevocation(raw: string, revoker: 'signOut' | 'revokeAllSessions'): Promise<void> {
    const subject = this.model.tokens.get(raw)?.subject ?? subjectOf(0);
    const revoke = (model: RotationModel): void => (revoker === 'signOut' ? model.signOut(raw) : model.revokeAll(subject));
    const [refreshed, revoked] = await this.scheduler.waitFor(
      Promise.all([
        this.#settle(this.service.refresh(raw)),
        this.#settle(revoker === 'signOut' ? this.service.signOut(raw) : this.service.revokeAllSessions(subject)),
      ]),
    );
    expect(revoked.outcome).toBe('success');

    const refreshThen = (model: RotationModel): Answer => {
      const prediction = model.predictRefresh(raw);
      if (prediction.reuse) model.revokeAfterReuse(raw);
      if (prediction.outcome === 'success' && refreshed.outcome === 'success') model.rotate(raw, refreshed.value.refreshToken);
      return prediction.outcome;
    };
    const refreshFirst = this.model.clone();
    const refreshFirstOutcome = refreshThen(refreshFirst);
    revoke(refreshFirst);
    const revocationFirst = this.model.clone();
    revoke(revocationFirst);
    const revocationFirstOutcome = refreshThen(revocationFirst);

    const candidates = [
      { name: 'refresh, then revocation', model: refreshFirst, outcome: refreshFirstOutcome, count: () => this.coverage.raceRefreshFirst++ },
      { name: 'revocation, then refresh', model: revocationFirst, outcome: revocationFirstOutcome, count: () => this.coverage.raceRevocationFirst++ },
    ].filter((candidate) => candidate.outcome === refreshed.outcome);
    const failures: string[] = [];
    for (const candidate of candidates) {
      try {
        this.checkStoreMatchesModel(candidate.model);
      } catch (error) {
        failures.push(`${candidate.name}: ${(error as Error).message}`);
        continue;
      }
      this.model = candidate.model;
      candidate.count();
      if (refreshed.outcome === 'success') this.#checkPair(refreshed.value, subject);
      return;
    }
    throw new Error(`refresh racing ${revoker}: outcome ${refreshed.outcome} matches no order of the two operations\n${failures.join('\n')}`);
  }

  #setAccount(user: number, status: AccountStatus): void {
    const subject = subjectOf(user);
    const modelUser = this.model.user(subject);
    modelUser.status = status;
    if (status === 'disabled') {
      this.credentials.disable(subject);
      return;
    }
    this.credentials.enable(subject);
    if (status === 'ok') {
      modelUser.claimsVersion++;
      this.credentials.setClaims(subject, { sub: subject, roles: ['member'], version: modelUser.claimsVersion });
    } else {
      this.credentials.setClaims(subject, { sub: subject, roles: 'not-an-array', version: -1 } as unknown as Claims);
    }
  }

  /**
   * After reuse: nothing in the token's family (or, for stores without revokeFamily, nothing of
   * its subject) is usable, read straight from the store.
   */
  #expectNoActiveTokenInReuseScope(raw: string): void {
    const records = this.store.records();
    const reused = records.find((r) => r.tokenHash === hashOf(raw));
    if (reused === undefined) throw new Error('reused token not in the store');
    const inScope = (r: StoredRefreshToken): boolean => (this.config.revokeFamily ? r.familyId === reused.familyId : r.subject === reused.subject);
    const usable = records.filter((r) => inScope(r) && r.revokedAt === null && r.rotatedAt === null && r.expiresAt.getTime() > this.model.now);
    expect(usable, 'no active token left in the reused family/subject').toEqual([]);
  }

  #orphanCount(): number {
    const hashes = new Set([...this.model.tokens.keys()].map(hashOf));
    return this.store.records().filter((r) => !hashes.has(r.tokenHash)).length;
  }
}
