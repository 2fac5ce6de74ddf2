import type { IdentityStore, LinkedIdentity } from './identity-store.js';

/** One key for an identity; JSON so that no issuer or subject can forge another pair's key. */
function keyOf(issuer: string, subject: string): string {
  return JSON.stringify([issuer, subject]);
}

/**
 * An {@link IdentityStore} in this process's memory: for tests and single-instance demos (lost on
 * restart). Use `PostgresIdentityStore` when several instances answer.
 *
 * @example
 * outsideSignIn: { identityStore: InMemoryIdentityStore, providers: [...] }
 */
export class InMemoryIdentityStore implements IdentityStore {
  readonly #identities = new Map<string, LinkedIdentity>();

  find(issuer: string, subject: string): LinkedIdentity | undefined {
    return this.#identities.get(keyOf(issuer, subject));
  }

  link(identity: LinkedIdentity): boolean {
    const key = keyOf(identity.issuer, identity.subject);
    if (this.#identities.has(key)) return false;
    this.#identities.set(key, Object.freeze({ ...identity }));
    return true;
  }

  unlink(accountId: string, issuer: string, subject: string): boolean {
    const key = keyOf(issuer, subject);
    if (this.#identities.get(key)?.accountId !== accountId) return false;
    return this.#identities.delete(key);
  }

  listByAccount(accountId: string): readonly LinkedIdentity[] {
    return [...this.#identities.values()].filter((identity) => identity.accountId === accountId);
  }
}
