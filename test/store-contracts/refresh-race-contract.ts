import { describe, expect, it } from 'vitest';
import { createManualClock, isHttpException } from '../../lib/index.js';
import type { Clock } from '../../lib/index.js';
import { hashRefreshToken, InMemoryCredentialStore, refreshTokenState, TokenIssuingService } from '../../lib/auth/sessions/issuing/index.js';
import type { RefreshTokenRecord, RefreshTokenState, RefreshTokenStore } from '../../lib/auth/sessions/issuing/index.js';
import { ContractClaims, fakeAccessTokens, T0, uniqueId } from './contract-fixtures.js';

/**
 * What a race needs: one store per caller (each on its own connection where the store has
 * connections, as separate processes would be) and a way to read a whole family back.
 */
export interface RaceStores {
  readonly stores: readonly RefreshTokenStore[];
  familyTokens(familyId: string): Promise<readonly RefreshTokenRecord[]>;
  close?(): Promise<void>;
}

/** Builds `callers` stores sharing one table, timestamps from `clock`. */
export type RaceStoresFactory = (clock: Clock, callers: number) => Promise<RaceStores>;

/** One finished race, for the measurements the tests print. */
interface RaceOutcome {
  readonly ok: number;
  readonly refused: number;
  readonly sawRotated: number;
  readonly ms: number;
}

/** Reports the state every `find` saw, so the expected end state can be derived from the table. */
function recording(store: RefreshTokenStore, seen: RefreshTokenState[], clock: Clock): RefreshTokenStore {
  return new Proxy(store, {
    get(target, property) {
      if (property === 'find') {
        return async (tokenHash: string) => {
          const record = await target.find(tokenHash);
          if (record != null) seen.push(refreshTokenState(record, clock.now()));
          return record;
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      // Bound, so class stores with #private fields still see themselves as `this`.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * N concurrent `refresh` calls with the same token, each through its own service and store, as N
 * instances would do (SPEC state table, rows "active" and "rotated"). Whatever the interleaving:
 * exactly one TokenPair, N-1 x 401 `Invalid credentials`, and at most one active token in the
 * family. A loser that read the token while still active lost the compare-and-set (nothing
 * changes); a loser that read it already rotated is reuse: outside the grace window the family is
 * revoked, inside it nothing is.
 *
 * @example
 * describeRefreshRaceContract('postgres', 50, async (clock, n) => ({ stores: clients.map((c) => new PostgresRefreshTokenStore(c, { clock })), familyTokens }));
 */
export function describeRefreshRaceContract(name: string, callers: number, make: RaceStoresFactory): void {
  describe(`refresh race, ${callers} callers: ${name}`, () => {
    for (const grace of [0, 30]) {
      it(`grace ${grace} s: exactly one TokenPair, ${callers - 1} x 401, state per the state table`, async () => {
        const clock = createManualClock(T0);
        const race = await make(clock, callers);
        try {
          const outcome = await runRace(race, clock, grace, callers);
          console.info(
            `[refresh race] ${name}, grace ${grace}s: ${outcome.ok} TokenPair, ${outcome.refused} x 401; ` +
              `${outcome.sawRotated} losers read the token already rotated; ${outcome.ms.toFixed(0)} ms`,
          );
        } finally {
          await race.close?.();
        }
      });
    }
  });
}

async function runRace(race: RaceStores, clock: Clock, grace: number, callers: number): Promise<RaceOutcome> {
  const subject = uniqueId('racer');
  const credentials = new InMemoryCredentialStore<ContractClaims>([
    { identifier: `${subject}@example.test`, subject, passwordHash: 'unused', claims: { sub: subject, roles: [] } },
  ]);
  const seen: RefreshTokenState[][] = race.stores.map(() => []);
  const services = race.stores.map(
    (store, i) =>
      new TokenIssuingService<ContractClaims>({
        claimsSchema: ContractClaims,
        credentialStore: credentials,
        refreshTokenStore: recording(store, seen[i] ?? [], clock),
        accessTokens: fakeAccessTokens(clock),
        clock,
        refreshReuseGraceSeconds: grace,
        passwordVerifier: { verify: async () => false, dummyHash: async () => 'unused' },
      }),
  );
  const first = services[0];
  if (first === undefined) throw new Error('no callers');
  const pair = await first.issueTokens(subject);
  const oldHash = hashRefreshToken(pair.refreshToken);
  const familyId = (await race.stores[0]?.find(oldHash))?.familyId;
  expect(typeof familyId).toBe('string');
  for (const s of seen) s.length = 0;

  const started = performance.now();
  const results = await Promise.allSettled(services.map((service) => service.refresh(pair.refreshToken)));
  const ms = performance.now() - started;

  const winners = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
  const refusals = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  expect(winners).toHaveLength(1);
  expect(refusals).toHaveLength(callers - 1);
  for (const reason of refusals) {
    expect(isHttpException(reason) ? [reason.status, reason.message] : reason).toEqual([401, 'Invalid credentials']);
  }

  const winner = winners[0];
  if (winner === undefined) throw new Error('unreachable');
  const successorHash = hashRefreshToken(winner.refreshToken);
  // Every caller read the token once (its first find); losers that read it rotated are reuse.
  const sawRotated = seen.filter((s) => s[0] === 'rotated').length;
  const familyTokens = await race.familyTokens(familyId as string);
  const old = await race.stores[0]?.find(oldHash);
  const successor = await race.stores[0]?.find(successorHash);

  expect(old?.rotatedAt).toEqual(new Date(T0));
  expect(successor).toMatchObject({ subject, familyId });
  const active = familyTokens.filter((t) => refreshTokenState(t, clock.now()) === 'active');
  if (grace === 0 && sawRotated > 0) {
    // Reuse outside the window: the whole family (successor included) is revoked.
    expect(active).toHaveLength(0);
    expect(old?.revokedAt).toEqual(new Date(T0));
    expect(successor?.revokedAt).toEqual(new Date(T0));
  } else {
    // Lost compare-and-sets (and replays inside the window) change nothing: the old token is
    // rotated, not revoked, and the winner's successor is the one active token of the family.
    expect(old?.revokedAt ?? null).toBeNull();
    expect(active).toHaveLength(1);
    expect(successor?.revokedAt ?? null).toBeNull();
    const next = await first.refresh(winner.refreshToken);
    expect(next.refreshToken).not.toBe(winner.refreshToken);
  }
  return { ok: winners.length, refused: refusals.length, sawRotated, ms };
}
