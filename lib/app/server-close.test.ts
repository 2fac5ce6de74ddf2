import { describe, expect, it } from 'vitest';
import { serverClose } from './server-close.js';

/** An app's shutdown steps, recording when each starts and letting the test finish them. */
function steps() {
  const log: string[] = [];
  const gates = new Map<string, () => void>();
  const step = (name: string) => () => {
    log.push(`${name} started`);
    return new Promise<void>((resolve) => gates.set(name, resolve));
  };
  const finish = async (name: string) => {
    gates.get(name)?.();
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { log, finish, drain: step('drain'), webSockets: { close: step('webSockets.close') }, stop: step('server stop') };
}

describe('serverClose: the one shutdown sequence of the server adapters', () => {
  it('drains first, then closes the WebSockets and stops the server side by side', async () => {
    const s = steps();
    const close = serverClose({ drain: s.drain, webSockets: s.webSockets as never }, s.stop);
    const closed = close();
    await s.finish('none');
    expect(s.log, 'nothing but the drain while it runs').toEqual(['drain started']);
    await s.finish('drain');
    expect(s.log, 'both after the drain, neither waiting for the other').toEqual(['drain started', 'webSockets.close started', 'server stop started']);
    let done = false;
    void closed.then(() => (done = true));
    await s.finish('server stop');
    expect(done, 'close waits for the WebSockets too').toBe(false);
    await s.finish('webSockets.close');
    expect(done).toBe(true);
  });

  it('runs once: a second close returns the same promise and stops nothing twice', async () => {
    const s = steps();
    const close = serverClose({ drain: s.drain, webSockets: s.webSockets as never }, s.stop);
    const first = close();
    expect(close()).toBe(first);
    await s.finish('drain');
    await s.finish('server stop');
    await s.finish('webSockets.close');
    await first;
    expect(s.log.filter((line) => line === 'server stop started')).toHaveLength(1);
  });

  it("passes the close options to the runtime's stop, and skips what a hand-made app lacks", async () => {
    const seen: unknown[] = [];
    await serverClose<{ forceAfterMs: number }>({}, (options) => void seen.push(options))({ forceAfterMs: 5 });
    expect(seen).toEqual([{ forceAfterMs: 5 }]);
  });
});
