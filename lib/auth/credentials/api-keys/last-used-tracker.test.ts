import { describe, expect, it } from 'vitest';
import { LastUsedTracker } from './last-used-tracker.js';

describe('LastUsedTracker', () => {
  it('grants one claim per key per interval', () => {
    const tracker = new LastUsedTracker(1000);
    expect(tracker.claim('a', 0)).toBe(true);
    expect(tracker.claim('a', 999)).toBe(false);
    expect(tracker.claim('b', 999)).toBe(true);
    expect(tracker.claim('a', 1000)).toBe(true);
    expect(tracker.claim('a', 1500)).toBe(false);
  });

  it('an interval of 0 grants every claim', () => {
    const tracker = new LastUsedTracker(0);
    expect(tracker.claim('a', 0)).toBe(true);
    expect(tracker.claim('a', 0)).toBe(true);
  });

  it('forgets keys whose interval has passed, so its size follows recent use only', () => {
    const tracker = new LastUsedTracker(1000);
    for (let i = 0; i < 100; i++) tracker.claim(`k${i}`, 0);
    expect(tracker.size).toBe(100);
    tracker.claim('late', 1000);
    expect(tracker.size).toBe(1);
  });

  it('refuses a negative interval', () => {
    expect(() => new LastUsedTracker(-1)).toThrow(RangeError);
  });
});
