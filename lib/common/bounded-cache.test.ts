import { describe, expect, it } from 'vitest';
import { BoundedCache } from './bounded-cache.js';

interface Entry {
  readonly value: string;
  readonly staleAtMs: number;
}
const entry = (value: string, staleAtMs = Number.POSITIVE_INFINITY): Entry => ({ value, staleAtMs });
const make = (maxEntries: number, order?: 'lru' | 'fifo') => new BoundedCache<string, Entry>({ maxEntries, staleAt: (e) => e.staleAtMs, ...(order === undefined ? {} : { order }) });

describe('BoundedCache', () => {
  it('serves a value until its stale time, then drops it', () => {
    const cache = make(10);
    cache.set('a', entry('A', 1_000), 0);
    expect(cache.get('a', 999)?.value).toBe('A');
    expect(cache.get('a', 1_000), 'stale at its stale time').toBeUndefined();
    expect(cache.size, 'the stale entry was dropped').toBe(0);
  });

  it('leaves staleness to the caller when read without a time', () => {
    const cache = make(10);
    cache.set('a', entry('A', 1_000), 0);
    expect(cache.get('a')?.value).toBe('A');
  });

  it('evicts the oldest insert when full (fifo), even if it was read since', () => {
    const cache = make(2);
    cache.set('a', entry('A'), 0);
    cache.set('b', entry('B'), 0);
    cache.get('a', 0);
    cache.set('c', entry('C'), 0);
    expect([cache.get('a', 0), cache.get('b', 0)?.value, cache.get('c', 0)?.value]).toEqual([undefined, 'B', 'C']);
  });

  it('evicts the least recently used when full (lru)', () => {
    const cache = make(2, 'lru');
    cache.set('a', entry('A'), 0);
    cache.set('b', entry('B'), 0);
    cache.get('a');
    cache.set('c', entry('C'), 0);
    expect([cache.get('a')?.value, cache.get('b'), cache.get('c')?.value]).toEqual(['A', undefined, 'C']);
  });

  it('never holds more than maxEntries, whatever is inserted', () => {
    const cache = make(3);
    for (let i = 0; i < 100; i++) cache.set(`k${i}`, entry(String(i)), i);
    expect(cache.size).toBe(3);
  });

  it('sweeps stale entries at the old end on insert', () => {
    const cache = make(10);
    cache.set('a', entry('A', 5), 0);
    cache.set('b', entry('B', 5), 0);
    cache.set('c', entry('C'), 10);
    expect(cache.size, 'the two stale oldest entries went on the insert').toBe(1);
  });

  it('replaces a value set again under the same key', () => {
    const cache = make(2);
    cache.set('a', entry('A1'), 0);
    cache.set('a', entry('A2'), 0);
    expect(cache.size).toBe(1);
    expect(cache.get('a', 0)?.value).toBe('A2');
  });

  it('deletes by key and by content', () => {
    const cache = make(10);
    for (const id of ['t1', 't2', 'u1']) cache.set(id, entry(id.startsWith('t') ? 'tenant' : 'user'), 0);
    expect(cache.delete('u1')).toBe(true);
    expect(cache.deleteWhere((e) => e.value === 'tenant'), 'how many were dropped').toBe(2);
    expect(cache.size).toBe(0);
  });

  it('clears', () => {
    const cache = make(10, 'lru');
    cache.set('a', entry('A'), 0);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });

  it('refuses a bound that is not a positive integer', () => {
    expect(() => make(0)).toThrow(RangeError);
    expect(() => make(1.5)).toThrow(RangeError);
  });
});
