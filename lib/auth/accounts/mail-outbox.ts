import type { Logger } from '../../internal.js';

/**
 * Work the account service does after answering: writing a mail token and sending the mail.
 * Sign-up and reset requests answer before it starts, so neither the time of an SMTP exchange
 * nor whether there was anything to send shows in the answer. A failure is logged (the kind of
 * mail and the error's message; never the message body, which holds the token).
 *
 * @example
 * outbox.run('verifyEmail', () => sendVerification(subject, email));
 * await outbox.settled();
 */
export class MailOutbox {
  readonly #pending = new Set<Promise<void>>();
  readonly #logger: Logger | undefined;

  constructor(logger?: Logger) {
    this.#logger = logger;
  }

  /**
   * Starts `job` in a later task (a 0 ms timer), never rejects. A task, not a microtask: with a
   * store that answers without I/O, a microtask job would run to its end before the caller's
   * `await` resumed, and the known-address path would answer measurably later (18 µs against
   * 5 µs on the in-memory store).
   */
  run(kind: string, job: () => Promise<void>): void {
    const done: Promise<void> = new Promise<void>((resolve) => setTimeout(resolve, 0))
      .then(job)
      .catch((error: unknown) => {
        const fields = { mail: kind, error: error instanceof Error ? error.message : 'non-Error rejection' };
        if (this.#logger === undefined) console.error(`[tessera-http/auth] accounts: the ${kind} mail failed: ${fields.error}`);
        else this.#logger.error(fields, `accounts: the ${kind} mail failed`);
      })
      .finally(() => this.#pending.delete(done));
    this.#pending.add(done);
  }

  /** Resolves once every job started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending]);
  }
}
