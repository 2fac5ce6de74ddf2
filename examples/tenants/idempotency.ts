import { idempotent, type RequestContext } from '../../lib/index.js';
import { getPrincipal } from '../../lib/auth/index.js';
import { auth } from './claims.js';

/**
 * Who is calling, as the auth module verified it: an API key by its id, a person by their
 * subject (with its issuer for an outside provider's token). Keys are scoped to it, so one caller's Idempotency-Key never replays another's answer.
 */
export function tenantsCaller(ctx: RequestContext): string | undefined {
  const key = auth.getCurrentApiKey(ctx);
  if (key !== undefined) return `api-key:${key.id}`;
  // A subject is only unique with its issuer: an outside provider's `bob` is not local `bob`.
  const principal = getPrincipal(ctx);
  if (principal?.kind === 'outside') return principal.subject === undefined ? undefined : `outside:${JSON.stringify([principal.issuer, principal.subject])}`;
  const user = auth.getCurrentUser(ctx);
  return user === undefined ? undefined : `user:${user.sub}`;
}

/**
 * The creates take `Idempotency-Key`: a retry gets the first answer instead of a second post or
 * key. The store is the module's `IDEMPOTENCY_STORE` (memory, PostgreSQL or Redis, as the engines
 * are); the defaults keep answers 24 h and hold a running request's key for 60 s.
 */
export const Idempotent = idempotent({ identify: tenantsCaller });
