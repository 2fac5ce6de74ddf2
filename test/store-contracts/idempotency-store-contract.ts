import { describe, expect, it } from 'vitest';
import type { IdempotencyStore, ManualClock } from '../../lib/index.js';
import { uniqueId } from './contract-fixtures.js';

/** A store under test, and how time passes for it: its manual clock, or (Redis keeps its own time) real time. */
export interface IdempotencyStoreHandle {
  readonly store: IdempotencyStore;
  /** Present when the store reads a clock the test drives; without it the contract sleeps. */
  readonly clock?: ManualClock | undefined;
}

const LOCK_MS = 300;
const TTL_MS = 600;

async function elapse(handle: IdempotencyStoreHandle, ms: number): Promise<void> {
  if (handle.clock !== undefined) handle.clock.advance(ms);
  // Real time: past the expiry by a margin, since Redis expires keys on its own clock.
  else await new Promise((resolve) => setTimeout(resolve, ms + 50));
}

/**
 * The contract every IdempotencyStore keeps (in memory, PostgreSQL, Redis): one claim per id at a
 * time, answers replayed until their TTL, claims freed after their lock time or on release, and
 * only the claim's own token settles it.
 *
 * @example
 * describeIdempotencyStoreContract('in-memory', async () => { const clock = createManualClock(T0); return { store: new InMemoryIdempotencyStore({ clock }), clock }; });
 */
export function describeIdempotencyStoreContract(name: string, make: () => Promise<IdempotencyStoreHandle>): void {
  describe(`IdempotencyStore contract: ${name}`, () => {
    it('claims a new id, then reports it running with the first claim’s fingerprint', async () => {
      const { store } = await make();
      const id = uniqueId('id');
      expect((await store.claim(id, 'fp-1', LOCK_MS)).state, 'the first claim').toBe('claimed');
      expect(await store.claim(id, 'fp-2', LOCK_MS), 'a second claim while the first holds it').toEqual({ state: 'running', fingerprint: 'fp-1' });
    });

    it('keeps ids apart', async () => {
      const { store } = await make();
      await store.claim(uniqueId('id'), 'fp', LOCK_MS);
      expect((await store.claim(uniqueId('id'), 'fp', LOCK_MS)).state).toBe('claimed');
    });

    it('answers a completed claim with its fingerprint and answer, text kept exactly', async () => {
      const { store } = await make();
      const id = uniqueId('id');
      const answer = `{"v":1,"body":"quotes \\" slashes / \\\\ newline \\n é ✓ 😀 ${'x'.repeat(100_000)}"}`;
      const claim = await store.claim(id, 'fp-1', LOCK_MS);
      if (claim.state !== 'claimed') throw new Error('the first claim was not claimed');
      expect(await store.complete(id, claim.token, answer, TTL_MS), 'complete with the claim’s token').toBe(true);
      expect(await store.claim(id, 'fp-2', LOCK_MS)).toEqual({ state: 'completed', fingerprint: 'fp-1', answer });
    });

    it('frees a released claim: the next claim gets it', async () => {
      const { store } = await make();
      const id = uniqueId('id');
      const claim = await store.claim(id, 'fp-1', LOCK_MS);
      if (claim.state !== 'claimed') throw new Error('the first claim was not claimed');
      expect(await store.release(id, claim.token), 'release with the claim’s token').toBe(true);
      const next = await store.claim(id, 'fp-2', LOCK_MS);
      expect(next.state).toBe('claimed');
      expect(await store.claim(id, 'fp-3', LOCK_MS), 'held by the second claim now').toEqual({ state: 'running', fingerprint: 'fp-2' });
    });

    it('settles nothing with another token', async () => {
      const { store } = await make();
      const id = uniqueId('id');
      await store.claim(id, 'fp-1', LOCK_MS);
      expect(await store.complete(id, 'not-the-token', 'answer', TTL_MS), 'complete').toBe(false);
      expect(await store.release(id, 'not-the-token'), 'release').toBe(false);
      expect(await store.claim(id, 'fp-1', LOCK_MS)).toEqual({ state: 'running', fingerprint: 'fp-1' });
    });

    it('neither releases nor overwrites a completed answer', async () => {
      const { store } = await make();
      const id = uniqueId('id');
      const claim = await store.claim(id, 'fp-1', LOCK_MS);
      if (claim.state !== 'claimed') throw new Error('the first claim was not claimed');
      await store.complete(id, claim.token, 'first', TTL_MS);
      expect(await store.release(id, claim.token), 'release after complete').toBe(false);
      expect(await store.complete(id, claim.token, 'second', TTL_MS), 'complete twice').toBe(false);
      expect(await store.claim(id, 'fp-1', LOCK_MS)).toEqual({ state: 'completed', fingerprint: 'fp-1', answer: 'first' });
    });

    it('frees a claim after its lock time; the expired claim’s token then settles nothing', async () => {
      const handle = await make();
      const { store } = handle;
      const id = uniqueId('id');
      const stale = await store.claim(id, 'fp-1', LOCK_MS);
      if (stale.state !== 'claimed') throw new Error('the first claim was not claimed');
      await elapse(handle, LOCK_MS);
      const fresh = await store.claim(id, 'fp-2', LOCK_MS);
      expect(fresh.state, 'claimed again after the lock time').toBe('claimed');
      expect(await store.complete(id, stale.token, 'late', TTL_MS), 'the expired claim completes nothing').toBe(false);
      expect(await store.release(id, stale.token), 'nor releases').toBe(false);
      expect(await store.claim(id, 'fp-3', LOCK_MS), 'the second claim still holds').toEqual({ state: 'running', fingerprint: 'fp-2' });
    });

    it('keeps an answer for its TTL, then frees the id', async () => {
      const handle = await make();
      const { store } = handle;
      const id = uniqueId('id');
      const claim = await store.claim(id, 'fp-1', LOCK_MS);
      if (claim.state !== 'claimed') throw new Error('the first claim was not claimed');
      await store.complete(id, claim.token, 'answer', TTL_MS);
      await elapse(handle, LOCK_MS);
      expect((await store.claim(id, 'fp-1', LOCK_MS)).state, 'past the lock time, within the TTL').toBe('completed');
      await elapse(handle, TTL_MS - LOCK_MS);
      expect((await store.claim(id, 'fp-2', LOCK_MS)).state, 'past the TTL').toBe('claimed');
    });

    it('of concurrent claims of one id, exactly one is claimed', async () => {
      const { store } = await make();
      const id = uniqueId('id');
      const claims = await Promise.all(Array.from({ length: 20 }, (_, i) => store.claim(id, `fp-${i}`, 10_000)));
      const claimed = claims.filter((claim) => claim.state === 'claimed');
      expect(claimed, 'one winner').toHaveLength(1);
      const winner = claims.indexOf(claimed[0] as (typeof claims)[number]);
      expect(claims.filter((claim) => claim.state === 'running' && claim.fingerprint === `fp-${winner}`), 'the others see the winner').toHaveLength(19);
    });
  });
}
