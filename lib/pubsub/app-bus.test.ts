import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonLogger } from '../logging/json-logger.js';
import { createAppBus } from './app-bus.js';
import { inProcessPubSub, type PubSub } from './pub-sub.js';

/** An engine whose publishes hang, fail or pass as the test says; it records what it took. */
function controlledEngine() {
  let mode: 'pass' | 'fail' | 'hang' = 'pass';
  const taken: string[] = [];
  const engine: PubSub = {
    publish(topic, message) {
      if (mode === 'hang') return new Promise(() => undefined);
      if (mode === 'fail') return Promise.reject(new Error('ECONNREFUSED'));
      taken.push(`${topic}:${message}`);
      return Promise.resolve();
    },
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    close: () => Promise.resolve(),
  };
  return { engine, taken, set: (next: typeof mode) => (mode = next) };
}

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  return { logger: jsonLogger({ write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) }), lines };
}

describe('the app bus', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a publish to a hanging engine holds its caller no longer than the bound, and resolves', async () => {
    const { engine, set } = controlledEngine();
    set('hang');
    const bus = createAppBus(engine, { logger: capturingLogger().logger, publishTimeoutMs: 250 });
    let done = false;
    void bus.publish('t', 'm').then(() => (done = true));
    await vi.advanceTimersByTimeAsync(249);
    expect(done, 'still within the bound').toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done, 'released at the bound').toBe(true);
  });

  it('an engine that refuses never turns a publish into an error; the message is dropped and counted', async () => {
    const { engine, set } = controlledEngine();
    set('fail');
    const bus = createAppBus(engine, { logger: capturingLogger().logger });
    await expect(bus.publish('t', 'one')).resolves.toBeUndefined();
    await expect(bus.publish('t', 'two')).resolves.toBeUndefined();
    expect(bus.stats()).toEqual({ dropped: 2, waiting: 0, republished: 0 });
  });

  it('logs one line when an outage starts and one when the bus delivers again, however many messages it lost', async () => {
    const { engine, set } = controlledEngine();
    const { logger, lines } = capturingLogger();
    const bus = createAppBus(engine, { logger });
    set('fail');
    for (let i = 0; i < 50; i++) await bus.publish('t', String(i));
    set('pass');
    await bus.publish('t', 'after');
    expect(lines.map((line) => line.event)).toEqual(['engine.lost', 'engine.back']);
    expect(lines[1]?.dropped, 'the return says how many were dropped').toBe(50);
  });

  it('keeps retry messages while the engine refuses them and publishes them again, in order, once it takes them', async () => {
    const { engine, taken, set } = controlledEngine();
    const bus = createAppBus(engine, { logger: capturingLogger().logger, retryDelayMs: 100 });
    set('fail');
    await bus.publish('revoke', 'a', { retry: true });
    await bus.publish('revoke', 'b', { retry: true });
    expect(bus.stats().waiting).toBe(2);
    await vi.advanceTimersByTimeAsync(100);
    expect(taken, 'still refused: nothing published').toEqual([]);
    set('pass');
    // A retry message published meanwhile queues behind the kept ones.
    await bus.publish('revoke', 'c', { retry: true });
    await vi.advanceTimersByTimeAsync(5_000);
    expect(taken).toEqual(['revoke:a', 'revoke:b', 'revoke:c']);
    expect(bus.stats()).toEqual({ dropped: 0, waiting: 0, republished: 3 });
  });

  it('a retry message the engine did not take within the bound is kept once it fails', async () => {
    let reject: (error: Error) => void = () => undefined;
    const engine: PubSub = { ...controlledEngine().engine, publish: () => new Promise((_, no) => (reject = no)) };
    const bus = createAppBus(engine, { logger: capturingLogger().logger, publishTimeoutMs: 50 });
    const published = bus.publish('revoke', 'a', { retry: true });
    await vi.advanceTimersByTimeAsync(50);
    await published;
    reject(new Error('command timed out'));
    await vi.advanceTimersByTimeAsync(0);
    expect(bus.stats().waiting).toBe(1);
  });

  it('past the retry limit the oldest kept message goes, counted and logged as an error', async () => {
    const { engine, set } = controlledEngine();
    const { logger, lines } = capturingLogger();
    const bus = createAppBus(engine, { logger, publishRetryLimit: 2 });
    set('fail');
    for (const message of ['a', 'b', 'c']) await bus.publish('revoke', message, { retry: true });
    expect(bus.stats()).toMatchObject({ dropped: 1, waiting: 2 });
    expect(lines.some((line) => line.event === 'pubsub.retry-overflow' && line.level === 'error'), 'an overflow is never silent').toBe(true);
  });

  it('a message the engine can never carry (too large) still rejects: that is the caller\u2019s bug', async () => {
    const engine: PubSub = { ...controlledEngine().engine, publish: () => Promise.reject(new RangeError('over 7900 bytes')) };
    const bus = createAppBus(engine, { logger: capturingLogger().logger });
    await expect(bus.publish('t', 'x'.repeat(9000))).rejects.toThrow(RangeError);
  });

  it('a subscription the engine does not confirm within the bound rejects with a 503 and is taken back', async () => {
    const calls: string[] = [];
    const engine: PubSub = {
      ...controlledEngine().engine,
      subscribe: () => new Promise(() => undefined),
      unsubscribe: (topic) => {
        calls.push(`unsubscribe ${topic}`);
        return Promise.resolve();
      },
    };
    const bus = createAppBus(engine, { logger: capturingLogger().logger, publishTimeoutMs: 250 });
    const subscribed = bus.subscribe('t', () => undefined);
    const seen = expect(subscribed).rejects.toMatchObject({ status: 503 });
    await vi.advanceTimersByTimeAsync(250);
    await seen;
    expect(calls, 'the pending subscription is taken back').toEqual(['unsubscribe t']);
  });

  it('delivers through the in-process engine at once', async () => {
    vi.useRealTimers();
    const bus = createAppBus(inProcessPubSub(), { logger: capturingLogger().logger });
    const got: string[] = [];
    await bus.subscribe('t', (message) => got.push(message));
    await bus.publish('t', 'hello');
    expect(got).toEqual(['hello']);
  });

  it('refuses a bound that is not a positive number of milliseconds', () => {
    expect(() => createAppBus(inProcessPubSub(), { logger: capturingLogger().logger, publishTimeoutMs: 0 })).toThrow(RangeError);
  });
});
