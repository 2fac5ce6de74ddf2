// The account service with a mailQueue: each promised mail is stored (queue resolved) before the
// operation resolves, with the same one queue call whatever the address, and a queued intent is
// made into its mail only when the queue hands it back (the job).
import { describe, expect, it } from 'vitest';
import { accountFixture, tokenOf } from './account-service.test-helper.js';
import type { AccountMailIntent, AccountMailQueue } from './account-mail-intent.js';

/** A queue that records each intent and holds its `queue` promise until released; `run` delivers as the job would. */
function heldQueue() {
  const queued: AccountMailIntent[] = [];
  let deliver: ((intent: AccountMailIntent) => Promise<void>) | undefined;
  let release: () => void = () => undefined;
  let held = Promise.resolve();
  const queue: AccountMailQueue = {
    joinsTransactions: false,
    queue: async (intent) => {
      await held;
      queued.push(intent);
    },
    serve: (handler) => void (deliver = handler),
  };
  return {
    queue,
    queued,
    hold: () => void (held = new Promise<void>((resolve) => (release = resolve))),
    release: () => release(),
    run: async () => {
      for (const intent of queued.splice(0)) await deliver?.(intent);
    },
  };
}

describe('AccountService with a mail queue', () => {
  it('resolves a sign-up only once its mail is stored on the queue', async () => {
    const mails = heldQueue();
    const { service } = await accountFixture({ mailQueue: mails.queue });
    mails.hold();
    let answered = false;
    const signUp = service.signUp('ada@example.test', 'correct horse battery').then(() => (answered = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(answered, 'the sign-up answered before its mail was stored').toBe(false);
    mails.release();
    await signUp;
    expect(mails.queued, 'the verification mail, stored before the answer').toEqual([{ kind: 'verifyEmail', subject: expect.any(String), address: 'ada@example.test' }]);
  });

  it('stores one intent for a reset of a known and of an unknown address, and reads nothing before answering', async () => {
    const mails = heldQueue();
    const { service, store } = await accountFixture({ mailQueue: mails.queue });
    await service.signUp('ada@example.test', 'correct horse battery');
    mails.queued.splice(0);
    const reads: string[] = [];
    const findByEmail = store.findByEmail.bind(store);
    store.findByEmail = (email) => (reads.push(email), findByEmail(email));
    await service.requestPasswordReset('ada@example.test');
    await service.requestPasswordReset('nobody@example.test');
    expect(mails.queued, 'one queued intent each, the same shape').toEqual([
      { kind: 'resetPassword', address: 'ada@example.test' },
      { kind: 'resetPassword', address: 'nobody@example.test' },
    ]);
    expect(reads, 'no account lookup before the answer (it would tell the two apart by time)').toEqual([]);
  });

  it('makes and sends the mail, with a working link, when the queue hands the intent back', async () => {
    const mails = heldQueue();
    const { service, mailer } = await accountFixture({ mailQueue: mails.queue });
    await service.signUp('ada@example.test', 'correct horse battery');
    await service.settled();
    expect(mailer.sent, 'nothing sent before the job runs').toEqual([]);
    await mails.run();
    expect(mailer.sent.map((mail) => mail.to), 'the verification mail, sent by the job').toEqual(['ada@example.test']);
    await expect(service.verifyEmail(tokenOf(mailer.sent[0])), 'the link the job issued verifies').resolves.toBeUndefined();
  });
});
