import type { Logger } from '../../index.js';

/**
 * Default bound on account mail jobs waiting at once in one process.
 *
 * @example
 * new MailOutbox(logger, DEFAULT_MAX_PENDING_MAIL_JOBS);
 */
export const DEFAULT_MAX_PENDING_MAIL_JOBS = 1000;

/**
 * Work the account service does after answering: writing a mail token and sending the mail.
 * Sign-up and reset requests answer before it starts, so neither the time of an SMTP exchange
 * nor whether there was anything to send shows in the answer. A failure is logged (the kind of
 * mail and the error's message; never the message body, which holds the token). At most
 * `maxPending` jobs wait at once (default {@link DEFAULT_MAX_PENDING_MAIL_JOBS}): requests answer
 * at once, so without a bound a flood of reset requests would queue work (store reads, SMTP
 * exchanges) faster than it drains; a job over the bound is dropped and logged, the answer unchanged.
 *
 * @example
 * outbox.run('verifyEmail', () => sendVerification(subject, email));
 * await outbox.settled();
 */
export class MailOutbox {
  readonly #pending = new Set<Promise<void>>();
  readonly #logger: Logger | undefined;
  readonly #maxPending: number;

  constructor(logger?: Logger, maxPending = DEFAULT_MAX_PENDING_MAIL_JOBS) {
    this.#logger = logger;
    this.#maxPending = maxPending;
  }

  /**
   * Starts `job` in a later task (a 0 ms timer), never rejects. A task, not a microtask: with a
   * store that answers without I/O, a microtask job would run to its end before the caller's
   * `await` resumed, and the known-address path would answer measurably later (18 µs against
   * 5 µs on the in-memory store).
   */
  run(kind: string, job: () => Promise<void>): void {
    if (this.#pending.size >= this.#maxPending) {
      this.#report('warn', { mail: kind }, `accounts: a ${kind} mail was dropped: ${this.#maxPending} mails are already waiting`);
      return;
    }
    const done: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(job)
      .catch((error: unknown) => {
        const fields = { mail: kind, error: error instanceof Error ? error.message : 'non-Error rejection' };
        this.#report('error', fields, `accounts: the ${kind} mail failed: ${fields.error}`);
      })
      .finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }

  #report(level: 'warn' | 'error', fields: Record<string, string>, message: string): void {
    if (this.#logger === undefined) console[level](`[tessera-http/auth] ${message}`);
    else this.#logger[level](fields, message);
  }

  /** Resolves once every job started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
