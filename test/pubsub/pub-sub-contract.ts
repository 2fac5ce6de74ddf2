import { describe, expect, it } from 'vitest';
import type { PubSub } from '../../lib/index.js';

/**
 * Two engines sharing one backend, as two instances would (for the in-process engine, the same
 * one twice), and a way to cut the subscriber's connection (where there is one).
 */
export interface PubSubPair {
  readonly a: PubSub;
  readonly b: PubSub;
  /** Drops `b`'s listening connection on the server side, or undefined where there is none. */
  readonly cut?: () => Promise<void>;
  close(): Promise<void>;
}

let topics = 0;
const topic = () => `t${Date.now().toString(36)}-${(topics++).toString(36)}`;

/** Resolves with the first `count` messages a handler receives, or rejects after `ms`. */
function collect(count: number, ms = 3_000): { handler: (m: string) => void; done: Promise<string[]> } {
  const seen: string[] = [];
  let resolve: (value: string[]) => void = () => undefined;
  const done = new Promise<string[]>((res, reject) => {
    resolve = res;
    setTimeout(() => reject(new Error(`got ${seen.length} of ${count} messages: ${JSON.stringify(seen)}`)), ms);
  });
  return {
    handler: (message) => {
      seen.push(message);
      if (seen.length === count) resolve([...seen]);
    },
    done,
  };
}

const quiet = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The PubSub contract every engine passes: delivery across instances, per topic, to every
 * handler; unsubscribe and close stop it; a throwing handler kills nothing; after the listening
 * connection is cut, subscriptions come back by themselves.
 *
 * @example
 * describePubSubContract('in-process', async () => { const bus = inProcessPubSub(); return { a: bus, b: bus, close: () => bus.close() }; });
 */
export function describePubSubContract(name: string, make: () => Promise<PubSubPair>): void {
  describe(`PubSub contract: ${name}`, () => {
    it('delivers what one instance publishes to the other, on that topic only, in order', async () => {
      const pair = await make();
      try {
        const [on, off] = [topic(), topic()];
        const got = collect(3);
        const other = collect(1, 400);
        await pair.b.subscribe(on, got.handler);
        await pair.b.subscribe(off, other.handler);
        for (const message of ['one', 'two', 'three']) await pair.a.publish(on, message);
        expect(await got.done).toEqual(['one', 'two', 'three']);
        await expect(other.done, 'another topic hears nothing').rejects.toThrow(/got 0 of 1/);
      } finally {
        await pair.close();
      }
    });

    it('gives each message to every handler of the topic, and a throwing handler stops none of them', async () => {
      const pair = await make();
      try {
        const t = topic();
        const first = collect(2);
        const second = collect(2);
        await pair.b.subscribe(t, () => {
          throw new Error('a handler bug');
        });
        await pair.b.subscribe(t, first.handler);
        await pair.b.subscribe(t, second.handler);
        await pair.a.publish(t, 'x');
        await pair.a.publish(t, 'y');
        expect(await first.done).toEqual(['x', 'y']);
        expect(await second.done).toEqual(['x', 'y']);
      } finally {
        await pair.close();
      }
    });

    it('stops delivering to a handler once it unsubscribes, and keeps delivering to the others', async () => {
      const pair = await make();
      try {
        const t = topic();
        const kept = collect(2);
        const dropped = collect(2, 500);
        await pair.b.subscribe(t, kept.handler);
        await pair.b.subscribe(t, dropped.handler);
        await pair.a.publish(t, '1');
        await quiet(100);
        await pair.b.unsubscribe(t, dropped.handler);
        await pair.a.publish(t, '2');
        expect(await kept.done).toEqual(['1', '2']);
        await expect(dropped.done).rejects.toThrow(/got 1 of 2/);
      } finally {
        await pair.close();
      }
    });

    it('subscribes again by itself after its listening connection is cut', async ({ skip }) => {
      const pair = await make();
      try {
        if (pair.cut === undefined) skip('this engine has no connection to cut');
        const t = topic();
        const got = collect(1, 10_000);
        await pair.b.subscribe(t, got.handler);
        expect(pair.b.listening?.(), 'listening before the cut').not.toBe(false);
        await pair.cut?.();
        if (pair.b.listening !== undefined) {
          // The loss shows until the connection is back (the engines wait 50-100 ms before reconnecting).
          const lossDeadline = Date.now() + 2_000;
          while (pair.b.listening() && Date.now() < lossDeadline) await quiet(2);
          expect(pair.b.listening(), 'not listening once the connection is cut').toBe(false);
        }
        // At most once: what is published while the listener is away is lost, so keep publishing until one arrives.
        const deadline = Date.now() + 9_000;
        let received = false;
        void got.done.then(() => (received = true), () => undefined);
        while (!received && Date.now() < deadline) {
          await pair.a.publish(t, 'after the cut');
          await quiet(100);
        }
        expect(await got.done).toEqual(['after the cut']);
        expect(pair.b.listening?.(), 'listening again').not.toBe(false);
      } finally {
        await pair.close();
      }
    }, 15_000);
  });
}
