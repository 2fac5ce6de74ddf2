import { describe, expect, it } from 'vitest';
import { createManualClock } from '../common/clock.js';
import { InMemoryIdempotencyStore } from './in-memory-idempotency-store.js';

describe('InMemoryIdempotencyStore bounds', () => {
  it('drops expired entries first when full', async () => {
    const clock = createManualClock(0);
    const store = new InMemoryIdempotencyStore({ clock, maxEntries: 2 });
    await store.claim('expired', 'fp', 1_000);
    await store.claim('live', 'fp', 10_000);
    clock.advance(1_000);
    await store.claim('new', 'fp', 10_000);
    expect([store.size, (await store.claim('live', 'fp', 10_000)).state], 'the live claim kept').toEqual([2, 'running']);
  });

  it('drops the oldest live entry when nothing has expired', async () => {
    const store = new InMemoryIdempotencyStore({ clock: createManualClock(0), maxEntries: 2 });
    await store.claim('oldest', 'fp', 10_000);
    await store.claim('second', 'fp', 10_000);
    await store.claim('third', 'fp', 10_000);
    expect([store.size, (await store.claim('second', 'fp', 10_000)).state], 'the second kept').toEqual([2, 'running']);
  });
});
