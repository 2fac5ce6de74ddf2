import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/** Every block the CSPRNG gave, in order; each byte of block k is (k * 64 + its index) & 255, so a cut shows where it came from. */
let blocks: Uint8Array[] = [];
let freshRandomBytes: (length: number) => Uint8Array;

beforeEach(async () => {
  blocks = [];
  vi.spyOn(crypto, 'getRandomValues').mockImplementation(<T extends ArrayBufferView | null>(array: T): T => {
    const bytes = array as unknown as Uint8Array;
    const k = blocks.length;
    for (let i = 0; i < bytes.length; i++) bytes[i] = (k * 64 + i) & 255;
    blocks.push(bytes.slice());
    return array;
  });
  // A fresh module each time: the block in hand is module state.
  vi.resetModules();
  ({ freshRandomBytes } = await import('./fresh-random-bytes.js'));
});

afterEach(() => vi.restoreAllMocks());

describe('freshRandomBytes', () => {
  it('cuts consecutive, non-overlapping slices of one drawn block', () => {
    const cuts = [freshRandomBytes(24), freshRandomBytes(12), freshRandomBytes(24)];
    const block = blocks[0] ?? new Uint8Array();
    expect(blocks.length, 'one draw').toBe(1);
    expect(cuts.map((cut) => [...cut]), 'bytes 0-23, 24-35, 36-59 of the block').toEqual([[...block.subarray(0, 24)], [...block.subarray(24, 36)], [...block.subarray(36, 60)]]);
  });

  it('draws a new block when the rest is too short, and never hands out the rest', () => {
    for (let i = 0; i < 63; i++) freshRandomBytes(24); // 1,512 of 1,536 bytes
    freshRandomBytes(12); // 1,524: 12 left
    const next = freshRandomBytes(24);
    expect(blocks.length, 'a second draw for the 24 bytes the first block no longer has').toBe(2);
    expect([...next], 'the start of the second block, not the first block\u2019s last 12 bytes').toEqual([...(blocks[1] ?? new Uint8Array()).subarray(0, 24)]);
  });

  it('refuses a length the block cannot serve', () => {
    expect(() => freshRandomBytes(0), 'zero bytes').toThrow(RangeError);
    expect(() => freshRandomBytes(1537), 'more than a block').toThrow(RangeError);
  });
});
