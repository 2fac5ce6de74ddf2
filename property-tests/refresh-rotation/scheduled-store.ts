// Routes every store call through fast-check's scheduler, so concurrent refreshes interleave in
// orders the scheduler picks (and can replay and shrink). A call runs against the inner store
// only when the scheduler releases it, and then atomically, as each in-memory operation is.
import type fc from 'fast-check';
import type { RefreshTokenStore } from '../../lib/auth/sessions/issuing/index.js';

const METHODS = ['create', 'find', 'markRotated', 'revoke', 'revokeAllForSubject', 'rotate', 'revokeFamily'] as const;

/**
 * A store with exactly the inner store's methods (optional ones stay absent), each delayed
 * until the scheduler releases it.
 *
 * @example
 * const store = scheduledStore(createInMemoryRefreshTokenStore({ rotate: false, revokeFamily: true }), scheduler);
 */
export function scheduledStore(inner: RefreshTokenStore, scheduler: fc.Scheduler): RefreshTokenStore {
  const wrapped: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of METHODS) {
    const fn = inner[method] as ((...args: unknown[]) => unknown) | undefined;
    if (typeof fn !== 'function') continue;
    wrapped[method] = async (...args: unknown[]) => {
      await scheduler.schedule(Promise.resolve(), method);
      return fn.apply(inner, args);
    };
  }
  return wrapped as unknown as RefreshTokenStore;
}
