import type { Clock, Logger, PubSub } from '../../../index.js';
import { unrefTimer } from '../../../internal/primitives.js';
import { RevocationCatchUp } from './revocation-catch-up.js';
import type { Awaitable } from '../../shared/awaitable.js';
import type { RevokedFamily } from './revoked-family.js';
import type { SessionRevocationListener } from './session-revocation-listener.js';
import type { SecurityEventSink } from '../../events/security-event.js';

/**
 * Where a starting instance reads the sessions ended before it: the completed refresh-token
 * store's `revokedFamiliesSince`, which answers none for a store that keeps no such history
 * (declared here, not read off the store's contract, so sessions/ does not import issuing/,
 * which imports it).
 *
 * @example
 * const history: RevocationHistory = completeRefreshTokenStore(refreshTokenStore);
 */
export interface RevocationHistory {
  revokedFamiliesSince(since: Date): Awaitable<readonly RevokedFamily[]>;
}

/** The topic revocations travel on between instances; its value keeps the name it had before the rename, so that instances of both versions hear each other during a rolling deploy. */
export const REVOCATION_TOPIC = 'tessera:auth:invalidate';

/** How long to wait before subscribing again when the bus refused (it is down at boot). */
const RESUBSCRIBE_MS = 2_000;

/**
 * Tells every instance that a credential was revoked, so that none keeps accepting it from its
 * cache: the auth module's `CREDENTIAL_REVOCATION`. Each instance listens on the app's PubSub
 * (`PUB_SUB`; a shared engine such as Redis or PostgreSQL LISTEN/NOTIFY reaches them all) and
 * drops the matching cached record at once, whatever `apiKeys.cacheSeconds` is, or starts
 * refusing a revoked session's access tokens (which, being stateless JWTs, would otherwise verify
 * until they expire) and drops their cached verifications; either way the sockets the credential
 * opened close (1008). The token-issuing service calls the session methods itself on sign-out, on
 * a reused refresh token and in `revokeAllSessions`.
 *
 * Faults: the revoking instance refuses at once, whatever the bus does; publishing holds the
 * caller at most the bus's bound and never fails (a revocation the bus refused is kept and
 * published again when it can). An instance whose own listening connection is down does not
 * trust its caches until it is back and has caught up from the stores: API keys are read from
 * the store on every request, and the sessions ended meanwhile are read from the refresh-token
 * store every second (see {@link startCredentialRevocation}).
 *
 * @example
 * await store.revoke(id);
 * await invalidation.apiKeyRevoked(id); // every instance refuses the key within the bus's delivery time
 */
export interface CredentialRevocation extends SessionRevocationListener {
  /**
   * Drops the API key's cached record on this instance, closes its sockets and publishes the
   * revocation. Resolves within the bus's publish bound and never rejects for the bus's fault.
   */
  apiKeyRevoked(id: string): Promise<void>;
}

/** What the invalidation needs of the auth runtime: the API-key cache and the session revocations. */
interface RevocableRuntime {
  readonly apiKeys: { trustCache(trusted: boolean): void; isUsable(id: string): Promise<boolean | undefined> } | undefined;
  readonly sessionLifetimeMs: number;
  revokeSession(sessionId: string, untilMs: number): void;
  revokeSubject(subject: string, cutoffMs: number, untilMs: number): void;
  revokeEveryone(cutoffMs: number, untilMs: number): void;
  revokeApiKey(id: string): void;
  apiKeysHoldingSockets(): Set<string>;
}

/** One revocation as it travels on the bus; times are the revoking instance's, in Unix ms. */
type InvalidationEvent =
  | { readonly kind: 'api-key'; readonly id: string }
  | { readonly kind: 'session'; readonly id: string; readonly until: number }
  | { readonly kind: 'subject'; readonly subject: string; readonly cutoff: number; readonly until: number }
  | { readonly kind: 'everyone'; readonly cutoff: number; readonly until: number };

/** The event a bus message carries, or undefined for anything malformed (ignored). */
function parseEvent(message: string): InvalidationEvent | undefined {
  let event: Record<string, unknown>;
  try {
    event = JSON.parse(message) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof event !== 'object' || event === null) return undefined;
  const { kind, id, subject, cutoff, until } = event;
  if (kind === 'api-key' && typeof id === 'string') return { kind, id };
  if (kind === 'session' && typeof id === 'string' && Number.isFinite(until)) return { kind, id, until: until as number };
  if (kind === 'subject' && typeof subject === 'string' && Number.isFinite(cutoff) && Number.isFinite(until)) return { kind, subject, cutoff: cutoff as number, until: until as number };
  if (kind === 'everyone' && Number.isFinite(cutoff) && Number.isFinite(until)) return { kind, cutoff: cutoff as number, until: until as number };
  return undefined;
}

/**
 * Starts listening for revocations on `bus` and answers the publishing side. Listening starts at
 * once and is retried every 2 s while the bus refuses it; `onModuleDestroy` stops it. With a
 * refresh-token store (`history`, completed), the sessions ended within
 * one access-token lifetime before this instance started are refused too: the bus keeps no
 * history, the store does. A store that cannot answer fails the boot (fail closed).
 *
 * While the bus's listening connection is down (`listening()` false), the instance stops
 * trusting its caches (see {@link RevocationCatchUp}) until it is back and has read what it
 * missed from the stores.
 *
 * @example
 * const invalidation = await startCredentialRevocation(runtime, bus, clock, refreshTokenStore);
 */
export async function startCredentialRevocation(
  runtime: RevocableRuntime,
  bus: PubSub,
  clock: Clock,
  history?: RevocationHistory,
  logger?: Logger,
  securityEvents?: SecurityEventSink,
): Promise<CredentialRevocation & { onModuleDestroy(): Promise<void> }> {
  let stopped = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  const apply = (event: InvalidationEvent) => {
    if (event.kind === 'api-key') runtime.revokeApiKey(event.id);
    else if (event.kind === 'session') runtime.revokeSession(event.id, event.until);
    else if (event.kind === 'everyone') runtime.revokeEveryone(event.cutoff, event.until);
    else runtime.revokeSubject(event.subject, event.cutoff, event.until);
  };
  // Applied here first, so the revoking instance refuses at once even when the bus is down; kept
  // by the bus for a retry when refused (a revocation is never silently lost).
  const applyAndPublish = async (event: InvalidationEvent) => {
    apply(event);
    await bus.publish(REVOCATION_TOPIC, JSON.stringify(event), { retry: true });
  };
  const handler = (message: string) => {
    const event = parseEvent(message);
    if (event !== undefined) apply(event);
  };
  let listeningNow = false;
  const listen = (): Promise<void> =>
    bus.subscribe(REVOCATION_TOPIC, handler).then(
      () => {
        listeningNow = true;
      },
      () => {
        if (stopped) return;
        retry = unrefTimer(setTimeout(() => void listen(), RESUBSCRIBE_MS));
      },
    );
  // Listening first, then reading the history: a session ended in between is heard, not missed.
  await listen();
  const lifetimeMs = runtime.sessionLifetimeMs;
  const readEndedSessions = async (since: number): Promise<void> => {
    if (history === undefined) return;
    for (const { familyId, revokedAt } of await history.revokedFamiliesSince(new Date(since))) {
      runtime.revokeSession(familyId, revokedAt.getTime() + lifetimeMs);
    }
  };
  await readEndedSessions(clock.now() - lifetimeMs);
  const catchUp = new RevocationCatchUp(runtime, bus, clock, readEndedSessions, logger, () => listeningNow);
  catchUp.start();
  return {
    apiKeyRevoked: (id) => {
      // Recorded where the revocation is made, once; the instances that hear it only apply it.
      securityEvents?.record({ type: 'api-key.revoked', keyId: id });
      return applyAndPublish({ kind: 'api-key', id });
    },
    sessionRevoked: (sessionId) => applyAndPublish({ kind: 'session', id: sessionId, until: clock.now() + lifetimeMs }),
    allSessionsRevoked(subject, cutoffMs) {
      const cutoff = cutoffMs ?? clock.now();
      return applyAndPublish({ kind: 'subject', subject, cutoff, until: Math.max(cutoff, clock.now()) + lifetimeMs });
    },
    everySessionRevoked(cutoffMs) {
      const cutoff = cutoffMs ?? clock.now();
      return applyAndPublish({ kind: 'everyone', cutoff, until: Math.max(cutoff, clock.now()) + lifetimeMs });
    },
    async onModuleDestroy() {
      stopped = true;
      clearTimeout(retry);
      catchUp.stop();
      await bus.unsubscribe(REVOCATION_TOPIC, handler).catch(() => undefined);
    },
  };
}
