import { describe, expect, it } from 'vitest';
import { createManualClock, inProcessPubSub, type PubSub } from '../../../index.js';
import { RevocationCatchUp } from './revocation-catch-up.js';

/** A runtime that records what the catch-up asks of it; `usable` says which keys the store still accepts. */
function recordingRuntime(holding: string[], usable: Record<string, boolean>) {
  const calls: string[] = [];
  return {
    calls,
    runtime: {
      apiKeys: { trustCache: (trusted: boolean) => void calls.push(`trustCache ${trusted}`), isUsable: async (id: string) => usable[id] },
      revokeApiKey: (id: string) => void calls.push(`revokeApiKey ${id}`),
      apiKeysHoldingSockets: () => new Set(holding),
    },
  };
}

/** An engine whose listening connection the test cuts and restores. */
function engineWithConnection(): { bus: PubSub; set(listening: boolean): void } {
  let up = true;
  const listeners = new Set<(listening: boolean) => void>();
  return {
    bus: { ...inProcessPubSub(), listening: () => up, onListeningChange: (listener) => (listeners.add(listener), () => listeners.delete(listener)) },
    set(listening) {
      up = listening;
      for (const listener of listeners) listener(listening);
    },
  };
}

describe('RevocationCatchUp', () => {
  it('stops trusting the caches the moment the bus is lost, reads what was missed while it is down, and trusts them again after one read once it is back', async () => {
    const clock = createManualClock(1_000_000);
    const engine = engineWithConnection();
    const reads: number[] = [];
    const { runtime, calls } = recordingRuntime(['k1', 'k2'], { k1: true, k2: false });
    const catchUp = new RevocationCatchUp(runtime, engine.bus, clock, async (since) => void reads.push(since), undefined, () => true);
    catchUp.start();
    expect(catchUp.trusted).toBe(true);
    engine.set(false);
    expect(catchUp.trusted, 'distrusted at once, before any tick').toBe(false);
    expect(calls, 'the key cache is out of the decision').toEqual(['trustCache false']);
    await catchUp.tick();
    expect(reads, 'ended sessions read back from before the loss (clock margin)').toEqual([1_000_000 - 30_000]);
    expect(calls, 'the key revoked meanwhile closes its sockets; the usable one stays').toContain('revokeApiKey k2');
    expect(calls).not.toContain('revokeApiKey k1');
    expect(catchUp.trusted, 'still down: still distrusted').toBe(false);
    clock.advance(5_000);
    engine.set(true);
    await catchUp.tick();
    expect(reads, 'one more read covers the gap').toHaveLength(2);
    expect(catchUp.trusted).toBe(true);
    expect(calls.at(-1)).toBe('trustCache true');
    catchUp.stop();
  });

  it('stays distrusted while the stores cannot be read, even once the bus is back', async () => {
    const engine = engineWithConnection();
    const { runtime } = recordingRuntime([], {});
    const catchUp = new RevocationCatchUp(runtime, engine.bus, createManualClock(0), () => Promise.reject(new Error('store down')), undefined, () => true);
    catchUp.start();
    engine.set(false);
    engine.set(true);
    await catchUp.tick();
    expect(catchUp.trusted, 'what was missed is unknown: the caches stay out').toBe(false);
    catchUp.stop();
  });

  it('never runs for an engine without a listening connection (the in-process one)', async () => {
    const { runtime, calls } = recordingRuntime([], {});
    const catchUp = new RevocationCatchUp(runtime, inProcessPubSub(), createManualClock(0), async () => undefined, undefined, () => false);
    catchUp.start();
    expect(catchUp.trusted).toBe(true);
    expect(calls).toEqual([]);
    catchUp.stop();
  });
});
