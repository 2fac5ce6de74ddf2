import type { SignInFlow, SignInFlowStore } from './sign-in-flow-store.js';

/** Flows kept at most; the oldest go first (each lives minutes; this bounds memory under a flood of starts). */
const MAX_FLOWS = 10_000;

/**
 * A {@link SignInFlowStore} in this process's memory. Only for one instance (tests, development):
 * behind a load balancer the callback may reach another instance, which would not find the flow;
 * use `PostgresSignInFlowStore` there.
 *
 * @example
 * outsideSignIn: { flowStore: InMemorySignInFlowStore, providers: [...] }
 */
export class InMemorySignInFlowStore implements SignInFlowStore {
  readonly #flows = new Map<string, SignInFlow>();

  save(stateHash: string, flow: SignInFlow): void {
    if (this.#flows.size >= MAX_FLOWS) {
      const oldest = this.#flows.keys().next();
      if (oldest.done !== true) this.#flows.delete(oldest.value);
    }
    this.#flows.set(stateHash, flow);
  }

  take(stateHash: string): SignInFlow | undefined {
    const flow = this.#flows.get(stateHash);
    this.#flows.delete(stateHash);
    return flow;
  }
}
