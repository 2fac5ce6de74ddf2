import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startHeartbeat } from './heartbeat.js';

describe('startHeartbeat', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('calls silent when a question goes unanswered for the interval, and asks one question at a time', async () => {
    let asked = 0;
    const silent: unknown[] = [];
    const stop = startHeartbeat(100, () => (asked++, new Promise(() => undefined)), () => undefined, (error) => silent.push(error));
    await vi.advanceTimersByTimeAsync(200);
    expect(silent, 'the unanswered question is a silence').toHaveLength(1);
    expect(asked, 'no second question while the first is unanswered').toBe(1);
    await vi.advanceTimersByTimeAsync(100);
    expect(asked, 'asked again once the first gave up').toBe(2);
    stop();
  });

  it('calls answered for an answer and silent for a refusal; skips the turns the probe declines', async () => {
    const events: string[] = [];
    let mode: 'answer' | 'refuse' | 'skip' = 'skip';
    const stop = startHeartbeat(
      100,
      () => (mode === 'skip' ? undefined : mode === 'answer' ? Promise.resolve('PONG') : Promise.reject(new Error('ECONNRESET'))),
      () => events.push('answered'),
      () => events.push('silent'),
    );
    await vi.advanceTimersByTimeAsync(100);
    mode = 'answer';
    await vi.advanceTimersByTimeAsync(100);
    mode = 'refuse';
    await vi.advanceTimersByTimeAsync(100);
    stop();
    await vi.advanceTimersByTimeAsync(500);
    expect(events).toEqual(['answered', 'silent']);
  });
});
