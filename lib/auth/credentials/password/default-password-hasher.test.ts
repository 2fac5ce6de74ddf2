import { describe, it, expect } from 'vitest';
import { createWasmPasswordHasher } from './wasm-password-hasher.js';
import { getDefaultPasswordHasher, setDefaultPasswordHasher } from './default-password-hasher.js';
import { hashPassword } from './hash-password.js';
import type { PasswordHasher } from './password-hasher.js';
import { verifyPassword } from './verify-password.js';

interface LoopStall {
  /** Longest pause between 1 ms timer ticks. */
  maxGapMs: number;
  /** Sum of pauses longer than 5 ms: time during which no other request could run. */
  blockedMs: number;
}

async function measureLoopStall(work: () => Promise<unknown>): Promise<LoopStall> {
  let maxGapMs = 0;
  let blockedMs = 0;
  let last = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    const gap = now - last;
    maxGapMs = Math.max(maxGapMs, gap);
    if (gap > 5) blockedMs += gap;
    last = now;
  }, 1);
  try {
    last = performance.now();
    await work();
    // Let the probe see the end of a stall that lasted until the work finished.
    await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    clearInterval(probe);
  }
  return { maxGapMs, blockedMs };
}

const tenConcurrentHashes = (hash: (password: string) => Promise<string>) => () =>
  Promise.all(Array.from({ length: 10 }, (_, i) => hash(`sign-in ${i}`)));

describe('default password hasher', () => {
  it('is chosen once, even by concurrent first callers', async () => {
    const [a, b] = await Promise.all([getDefaultPasswordHasher(), getDefaultPasswordHasher()]);
    expect(a).toBe(b);
    expect(await getDefaultPasswordHasher()).toBe(a);
    expect((a as { backend?: string }).backend).toBe('native');
  });

  it('can be set explicitly and reset to automatic selection', async () => {
    const automatic = await getDefaultPasswordHasher();
    const calls: string[] = [];
    const custom: PasswordHasher = {
      hash: async () => {
        calls.push('hash');
        return 'custom';
      },
      verify: async () => {
        calls.push('verify');
        return true;
      },
    };
    setDefaultPasswordHasher(custom);
    try {
      expect(await hashPassword('x')).toBe('custom');
      expect(await verifyPassword('x', 'custom')).toBe(true);
      expect(calls).toEqual(['hash', 'verify']);
    } finally {
      setDefaultPasswordHasher(undefined);
    }
    expect(await getDefaultPasswordHasher()).toBe(automatic);
  });

  it('on Node does not stall the event loop while ten sign-ins hash at once', async () => {
    await hashPassword('warm-up');
    const wasm = createWasmPasswordHasher();
    await wasm.hash('warm-up');

    const native = await measureLoopStall(tenConcurrentHashes(hashPassword));
    // Control: the same probe must see main-thread WASM block the loop, or it proves nothing.
    const mainThread = await measureLoopStall(tenConcurrentHashes((password) => wasm.hash(password)));

    expect(native.maxGapMs).toBeLessThan(200);
    expect(native.blockedMs).toBeLessThan(mainThread.blockedMs / 2);
    expect(mainThread.blockedMs).toBeGreaterThan(200);
  });
});
