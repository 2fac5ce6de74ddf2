import { describe, expect, it } from 'vitest';
import { TopicTable, type TopicUpstream } from './topic-table.js';

/** An upstream whose subscriptions wait until told to succeed or fail; records what it was asked. */
function gatedUpstream() {
  const calls: string[] = [];
  const gates: { topic: string; pass: () => void; fail: (error: Error) => void }[] = [];
  const upstream: TopicUpstream = {
    subscribe(topic) {
      calls.push(`subscribe ${topic}`);
      return new Promise<void>((pass, fail) => gates.push({ topic, pass, fail }));
    },
    unsubscribe(topic) {
      calls.push(`unsubscribe ${topic}`);
      return Promise.resolve();
    },
  };
  const gate = (index: number) => {
    const found = gates[index];
    if (found === undefined) throw new Error(`no subscription #${index}`);
    return found;
  };
  return { upstream, calls, gate };
}

/** Whether a promise has settled by the time the microtasks queued so far have run. */
async function state(promise: Promise<unknown>): Promise<'pending' | 'resolved' | 'rejected'> {
  let result: 'pending' | 'resolved' | 'rejected' = 'pending';
  promise.then(() => (result = 'resolved'), () => (result = 'rejected'));
  for (let i = 0; i < 10; i++) await Promise.resolve();
  return result;
}

function received(table: TopicTable<string>, topic: string): string[] {
  const got: string[] = [];
  table.deliver(topic, 'm', (member) => got.push(member), (error) => {
    throw error;
  });
  return got;
}

describe('TopicTable', () => {
  it('subscribes upstream once per topic, and a second member waits for that subscription', async () => {
    const { upstream, calls, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const first = table.add('t', 'a');
    const second = table.add('t', 'b');
    expect(calls, 'one upstream subscription for two members').toEqual(['subscribe t']);
    expect(await state(second), 'the second member is not told it is subscribed before the upstream holds').toBe('pending');
    gate(0).pass();
    expect(await state(first)).toBe('resolved');
    expect(await state(second)).toBe('resolved');
    expect(received(table, 't').sort()).toEqual(['a', 'b']);
  });

  it('rejects every member waiting on a failed subscription and forgets the topic', async () => {
    const { upstream, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const first = table.add('t', 'a');
    const second = table.add('t', 'b');
    gate(0).fail(new Error('SUBSCRIBE refused'));
    await expect(first).rejects.toThrow('SUBSCRIBE refused');
    await expect(second, 'the second subscriber learns the topic is not carried').rejects.toThrow('SUBSCRIBE refused');
    expect(table.has('t'), 'nobody stays a member of a topic nothing carries').toBe(false);
    expect(received(table, 't')).toEqual([]);
  });

  it('subscribes again for a member that comes after a failure', async () => {
    const { upstream, calls, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const failed = table.add('t', 'a');
    gate(0).fail(new Error('down'));
    await expect(failed).rejects.toThrow('down');
    const again = table.add('t', 'a');
    expect(calls).toEqual(['subscribe t', 'subscribe t']);
    gate(1).pass();
    await expect(again).resolves.toBeUndefined();
    expect(received(table, 't')).toEqual(['a']);
  });

  it('unsubscribes upstream when the last member leaves, and not before', async () => {
    const { upstream, calls, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const added = Promise.all([table.add('t', 'a'), table.add('t', 'b')]);
    gate(0).pass();
    await added;
    await table.remove('t', 'a');
    expect(calls, 'a member is left').toEqual(['subscribe t']);
    await table.remove('t', 'b');
    expect(calls).toEqual(['subscribe t', 'unsubscribe t']);
    expect(table.has('t')).toBe(false);
  });

  it('a member leaving while the subscription is pending: the subscription lands, then is undone', async () => {
    const { upstream, calls, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const added = table.add('t', 'a');
    const removed = table.remove('t', 'a');
    expect(calls, 'nothing to undo before the subscription lands').toEqual(['subscribe t']);
    gate(0).pass();
    await added;
    await removed;
    expect(calls).toEqual(['subscribe t', 'unsubscribe t']);
    expect(table.has('t')).toBe(false);
  });

  it('a member joining after another left during the pending subscription keeps it', async () => {
    const { upstream, calls, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const first = table.add('t', 'a');
    void table.remove('t', 'a');
    const second = table.add('t', 'b');
    gate(0).pass();
    await first;
    await second;
    expect(calls, 'no unsubscribe: b is still there').toEqual(['subscribe t']);
    expect(received(table, 't')).toEqual(['b']);
  });

  it('close rejects a subscription still on its way and refuses new members', async () => {
    const { upstream, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const pending = table.add('t', 'a');
    table.close();
    gate(0).pass();
    await expect(pending, 'a subscriber must not believe it hears a closed table').rejects.toThrow(/closed/);
    await expect(table.add('u', 'b')).rejects.toThrow(/closed/);
    expect(received(table, 't')).toEqual([]);
  });

  it('a member that throws on delivery stops no other member', async () => {
    const table = new TopicTable<string>({ subscribe: () => Promise.resolve(), unsubscribe: () => Promise.resolve() });
    await table.add('t', 'bad');
    await table.add('t', 'good');
    const got: string[] = [];
    const errors: unknown[] = [];
    table.deliver(
      't',
      'm',
      (member) => {
        if (member === 'bad') throw new Error('bug');
        got.push(member);
      },
      (error) => errors.push(error),
    );
    expect(got).toEqual(['good']);
    expect(errors).toHaveLength(1);
  });

  it('topics on a slow upstream settle independently: a failure of one leaves the other subscribed', async () => {
    const { upstream, gate } = gatedUpstream();
    const table = new TopicTable<string>(upstream);
    const one = table.add('one', 'a');
    const two = table.add('two', 'a');
    gate(1).pass();
    gate(0).fail(new Error('one refused'));
    await expect(one).rejects.toThrow('one refused');
    await expect(two).resolves.toBeUndefined();
    expect([...table.topics]).toEqual(['two']);
  });
});
