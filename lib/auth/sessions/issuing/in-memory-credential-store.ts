import type { RehashingCredentialStore, StoredCredential } from './credential-store.js';
import { normalizeIdentifier } from '../../shared/normalize-identifier.js';

/**
 * An account for {@link InMemoryCredentialStore}.
 *
 * @example
 * const account: InMemoryAccount<Claims> = {
 *   identifier: 'alice@acme.test', subject: 'u_alice', passwordHash: await hashPassword('secret'),
 *   claims: { sub: 'u_alice', roles: ['owner'] },
 * };
 */
export interface InMemoryAccount<Claims> {
  readonly identifier: string;
  readonly subject: string;
  readonly passwordHash: string;
  readonly claims: Claims;
  /** A disabled account is found (so its password is still verified) but cannot sign in. */
  readonly disabled?: boolean | undefined;
}

interface AccountRow<Claims> {
  passwordHash: string;
  claims: Claims;
  disabled: boolean;
}


/**
 * A credential store held in memory, for tests and demos. Claims are copied in and out
 * (`structuredClone`), so callers cannot change stored claims by mutating an object.
 * The constructor argument is optional, so the class can be given to the auth module as a
 * provider (typically a subclass that seeds its accounts).
 *
 * @example
 * class DemoAccounts extends InMemoryCredentialStore<Claims> {
 *   constructor() { super([{ identifier: 'alice@acme.test', subject: 'u1', passwordHash, claims: { sub: 'u1', roles: [] } }]); }
 * }
 */
export class InMemoryCredentialStore<Claims = unknown> implements RehashingCredentialStore<Claims> {
  readonly #bySubject = new Map<string, AccountRow<Claims>>();
  readonly #subjectByIdentifier = new Map<string, string>();

  constructor(accounts: readonly InMemoryAccount<Claims>[] = []) {
    for (const account of accounts) this.addAccount(account);
  }

  /**
   * Adds an account. Throws if the identifier (normalized) or the subject is taken.
   *
   * @example
   * store.addAccount({ identifier: 'bob@acme.test', subject: 'u_bob', passwordHash, claims });
   */
  addAccount(account: InMemoryAccount<Claims>): void {
    const identifier = normalizeIdentifier(account.identifier);
    if (this.#subjectByIdentifier.has(identifier)) throw new Error('An account with this identifier already exists');
    if (this.#bySubject.has(account.subject)) throw new Error('An account with this subject already exists');
    this.#subjectByIdentifier.set(identifier, account.subject);
    this.#bySubject.set(account.subject, {
      passwordHash: account.passwordHash,
      claims: structuredClone(account.claims),
      disabled: account.disabled ?? false,
    });
  }

  /**
   * Replaces a subject's claims (they are validated at the next sign-in or refresh, not here).
   *
   * @example
   * store.setClaims('u_bob', { sub: 'u_bob', roles: ['owner'] });
   */
  setClaims(subject: string, claims: Claims): void {
    this.#row(subject).claims = structuredClone(claims);
  }

  /**
   * Disables an account: `loadClaims` answers undefined, so sign-in and refresh fail with 401.
   * Pair it with `revokeAllSessions(subject)` to end existing sessions at once.
   *
   * @example
   * store.disable('u_bob');
   */
  disable(subject: string): void {
    this.#row(subject).disabled = true;
  }

  /**
   * Re-enables a disabled account.
   *
   * @example
   * store.enable('u_bob');
   */
  enable(subject: string): void {
    this.#row(subject).disabled = false;
  }

  /** The account for an identifier (in the form of `normalizeIdentifier`), disabled or not. */
  async findByIdentifier(identifier: string): Promise<StoredCredential | undefined> {
    const subject = this.#subjectByIdentifier.get(normalizeIdentifier(identifier));
    if (subject === undefined) return undefined;
    const row = this.#bySubject.get(subject);
    return row === undefined ? undefined : { subject, passwordHash: row.passwordHash };
  }

  /** A copy of the subject's claims; undefined for an unknown or disabled subject. */
  async loadClaims(subject: string): Promise<Claims | undefined> {
    const row = this.#bySubject.get(subject);
    if (row === undefined || row.disabled) return undefined;
    return structuredClone(row.claims);
  }

  /** Replaces the subject's password hash with `to` while it is still `from`; true when it did (a rehash at sign-in). */
  async replacePasswordHash(subject: string, from: string, to: string): Promise<boolean> {
    const row = this.#bySubject.get(subject);
    if (row === undefined || row.passwordHash !== from) return false;
    row.passwordHash = to;
    return true;
  }

  #row(subject: string): AccountRow<Claims> {
    const row = this.#bySubject.get(subject);
    if (row === undefined) throw new Error('No account with this subject');
    return row;
  }
}
