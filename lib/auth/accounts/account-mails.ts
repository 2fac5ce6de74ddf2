import type { AccountMailIntent, AccountMailQueue } from './account-mail-intent.js';
import { createsInTransaction, type AccountStore, type NewAccount } from './account-store.js';
import type { MailOutbox } from './mail-outbox.js';

/**
 * How the account service keeps a mail promise: without a queue, in this process after the
 * answer (the outbox); with one, stored durably before the answer, the same work on every path
 * (one `queue` call whatever the address), so the answer's time still says nothing about accounts.
 *
 * @example
 * const mails = new AccountMails(outbox, options.mailQueue, (intent) => deliver(intent));
 * await mails.promise({ kind: 'resetPassword', address });
 */
export class AccountMails {
  readonly #outbox: MailOutbox;
  readonly #queue: AccountMailQueue | undefined;
  readonly #deliver: (intent: AccountMailIntent) => Promise<void>;

  constructor(outbox: MailOutbox, queue: AccountMailQueue | undefined, deliver: (intent: AccountMailIntent) => Promise<void>) {
    this.#outbox = outbox;
    this.#queue = queue;
    this.#deliver = deliver;
    queue?.serve(deliver);
  }

  /** Promises the mail: stored before this resolves (a queue), or started after the answer (no queue). */
  async promise(intent: AccountMailIntent): Promise<void> {
    if (this.#queue !== undefined) await this.#queue.queue(intent);
    // Logged under the mail's kind: a verification asked for again is a verifyEmail mail.
    else this.#outbox.run(intent.kind === 'requestVerification' ? 'verifyEmail' : intent.kind, () => this.#deliver(intent));
  }

  /**
   * Creates the account and promises the mail its outcome calls for: in one transaction of the
   * store when the queue and the store both can (a crash between the two writes leaves neither),
   * else one after the other.
   */
  async createAccount<Claims>(store: AccountStore<Claims>, account: NewAccount<Claims>, mailFor: (created: boolean) => AccountMailIntent): Promise<boolean> {
    const queue = this.#queue;
    if (queue?.joinsTransactions === true && createsInTransaction(store)) {
      return store.createAccountInTransaction(account, (created, transaction) => queue.queue(mailFor(created), transaction));
    }
    const created = await store.createAccount(account);
    await this.promise(mailFor(created));
    return created;
  }

  /** Sets the password hash and promises `mail`, in one transaction when both can (as {@link createAccount}). */
  async setPasswordHash<Claims>(store: AccountStore<Claims>, subject: string, passwordHash: string, mail: AccountMailIntent): Promise<void> {
    const queue = this.#queue;
    if (queue?.joinsTransactions === true && createsInTransaction(store)) {
      await store.setPasswordHashInTransaction(subject, passwordHash, (transaction) => queue.queue(mail, transaction));
      return;
    }
    await store.setPasswordHash(subject, passwordHash);
    await this.promise(mail);
  }

  /** Moves the account to `to` and, when it moved, promises `mail`, in one transaction when both can (as {@link createAccount}). */
  async changeEmail<Claims>(store: AccountStore<Claims>, subject: string, from: string, to: string, mail: AccountMailIntent): Promise<boolean> {
    const queue = this.#queue;
    if (queue?.joinsTransactions === true && createsInTransaction(store)) {
      return store.changeEmailInTransaction(subject, from, to, async (changed, transaction) => {
        if (changed) await queue.queue(mail, transaction);
      });
    }
    const changed = await store.changeEmail(subject, from, to);
    if (changed) await this.promise(mail);
    return changed;
  }
}
