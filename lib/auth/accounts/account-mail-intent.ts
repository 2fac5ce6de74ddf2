/**
 * One account mail the service has promised, as data: what to send and to whom, before any
 * token is issued or template filled. With an {@link AccountMailQueue}, the service stores it
 * durably before it answers, and a job turns it into the mail later (issuing the link's token,
 * applying the per-address limit), so a crash after the answer loses no mail.
 *
 * @example
 * const intent: AccountMailIntent = { kind: 'resetPassword', address: 'ada@example.com' };
 */
export type AccountMailIntent =
  | { readonly kind: 'verifyEmail'; readonly subject: string; readonly address: string }
  | { readonly kind: 'signUpAttempt'; readonly address: string }
  | { readonly kind: 'requestVerification'; readonly address: string }
  | { readonly kind: 'resetPassword'; readonly address: string }
  | { readonly kind: 'confirmEmailChange'; readonly subject: string; readonly address: string; readonly oldEmail: string }
  | { readonly kind: 'emailChanged'; readonly oldEmail: string; readonly newEmail: string }
  | { readonly kind: 'passwordChanged'; readonly email: string };

/**
 * A database transaction a write and its mail can share: anything with pg's `query(text, values)`
 * (a `pg` `PoolClient` inside `BEGIN`).
 *
 * @example
 * const transaction: AccountTransaction = await pool.connect();
 */
export interface AccountTransaction {
  query(text: string, values?: unknown[]): Promise<{ readonly rows: unknown[] }>;
}

/**
 * Where the account service stores its mail intents durably (see `accountMailJobs`): `queue`
 * resolves once the intent is stored, and the service answers only after that. When
 * `joinsTransactions` holds and the account store can (`PostgresAccountStore`), sign-up's
 * account and its mail are written in one transaction: both or neither.
 *
 * @example
 * const mails = accountMailJobs({ joinsTransactions: true });
 * AuthModule.forRoot({ ..., accounts: { ..., mailQueue: mails.queue } });
 */
export interface AccountMailQueue {
  /** Whether `queue` can join a database transaction of the account store (the PostgreSQL job engine on the store's database). */
  readonly joinsTransactions: boolean;
  /** Stores `intent`; inside `transaction` when given. */
  queue(intent: AccountMailIntent, transaction?: AccountTransaction): Promise<void>;
  /** Called by the account service this queue serves: each stored intent is handed to `deliver`. */
  serve(deliver: (intent: AccountMailIntent) => Promise<void>): void;
}
