import type { Clock } from '../../../index.js';
import { sessionStartOf } from './session-id.js';

/** Sweep expired entries when a map reaches this size, then at twice the size that remains. */
const FIRST_SWEEP_SIZE = 1024;

/**
 * The sessions this instance must refuse the access tokens of, until those tokens would have
 * expired anyway: one session (sign-out, a reused refresh token's family), every session a
 * subject started before a moment (`revokeAllSessions`) or every session of everyone started
 * before a moment (`revokeEverySession`). Access tokens are stateless JWTs, so a
 * revoked session's tokens still verify; the auth runtime asks this registry after verifying.
 *
 * A subject's sessions are told apart by their start, read from the `sid` claim (a version-7
 * session id, see `newSessionId`); a token without one counts from its `iat` (whole seconds, so a
 * token issued in the second of the revocation is refused: fail closed). A token without `iat`
 * either is refused. Entries live until `untilMs`, the latest expiry a revoked token can have, and
 * are never evicted earlier: a cap would fail open. Memory is one small entry per revocation
 * within one access-token lifetime.
 *
 * @example
 * const revocations = new SessionRevocations(clock);
 * revocations.revokeSession(sid, clock.now() + 900_000);
 * revocations.isRevoked(payload); // true for every token carrying that sid
 */
export class SessionRevocations {
  readonly #sessions = new Map<string, number>();
  readonly #subjects = new Map<string, SubjectCutoff[]>();
  /** Everyone's cutoffs (`revokeEverySession`): few, each kept until its own tokens expired. */
  #everyone: SubjectCutoff[] = [];
  readonly #clock: Clock;
  #sweepAt = FIRST_SWEEP_SIZE;

  constructor(clock: Clock) {
    this.#clock = clock;
  }

  /** Refuses every token whose `sid` is `sessionId` until `untilMs`; false when that was known already (nothing changed). */
  revokeSession(sessionId: string, untilMs: number): boolean {
    const known = this.#sessions.get(sessionId);
    if (known !== undefined && known >= untilMs) return false;
    this.#sessions.set(sessionId, untilMs);
    this.#sweepIfLarge();
    return true;
  }

  /** Refuses, until `untilMs`, every token of `subject` from a session started before `cutoffMs`. */
  revokeSubject(subject: string, cutoffMs: number, untilMs: number): void {
    // Kept apart, not merged: each cutoff holds only until its own tokens would have expired.
    const cutoffs = this.#subjects.get(subject);
    if (cutoffs === undefined) this.#subjects.set(subject, [{ cutoffMs, untilMs }]);
    else cutoffs.push({ cutoffMs, untilMs });
    this.#sweepIfLarge();
  }

  /** Refuses, until `untilMs`, every token of every subject from a session started before `cutoffMs`. */
  revokeEveryone(cutoffMs: number, untilMs: number): void {
    this.#everyone.push({ cutoffMs, untilMs });
  }

  /** Whether a verified payload belongs to a revoked session. Two map lookups when anything is revoked, none otherwise. */
  isRevoked(payload: Readonly<Record<string, unknown>>): boolean {
    if (this.#sessions.size === 0 && this.#subjects.size === 0 && this.#everyone.length === 0) return false;
    const nowMs = this.#clock.now();
    if (this.#everyone.length > 0) {
      // Dropped only once one has run out, not copied on every request.
      if (this.#everyone.some((cutoff) => nowMs >= cutoff.untilMs)) this.#everyone = this.#everyone.filter((cutoff) => nowMs < cutoff.untilMs);
      const start = startOf(payload);
      if (this.#everyone.some((cutoff) => start < cutoff.cutoffMs)) return true;
    }
    const sid = payload.sid;
    if (typeof sid === 'string') {
      const until = this.#sessions.get(sid);
      if (until !== undefined) {
        if (nowMs < until) return true;
        this.#sessions.delete(sid);
      }
    }
    const sub = payload.sub;
    if (typeof sub !== 'string') return false;
    const cutoffs = this.#subjects.get(sub);
    if (cutoffs === undefined) return false;
    const live = this.#liveCutoffs(sub, cutoffs, nowMs);
    const start = startOf(payload);
    return live.some((cutoff) => start < cutoff.cutoffMs);
  }

  /** The subject's cutoffs still in force at `nowMs`; the expired ones leave the map (the subject too, when none is left). */
  #liveCutoffs(subject: string, cutoffs: SubjectCutoff[], nowMs: number): SubjectCutoff[] {
    const live = cutoffs.filter((cutoff) => nowMs < cutoff.untilMs);
    if (live.length === 0) this.#subjects.delete(subject);
    else if (live.length < cutoffs.length) this.#subjects.set(subject, live);
    return live;
  }

  /** Drops expired entries once a map has grown to the sweep size (amortised: the next sweep waits for twice what is left). */
  #sweepIfLarge(): void {
    if (this.#sessions.size + this.#subjects.size < this.#sweepAt) return;
    const now = this.#clock.now();
    for (const [sid, until] of this.#sessions) if (until <= now) this.#sessions.delete(sid);
    for (const [sub, cutoffs] of this.#subjects) this.#liveCutoffs(sub, cutoffs, now);
    this.#sweepAt = Math.max(FIRST_SWEEP_SIZE, (this.#sessions.size + this.#subjects.size) * 2);
  }
}

/** One `revokeAllSessions`: sessions started before `cutoffMs` are refused until `untilMs`. */
interface SubjectCutoff {
  readonly cutoffMs: number;
  readonly untilMs: number;
}

/** When the token's session started (ms): from its `sid`, else its `iat`; -Infinity when neither says (refused by any cutoff). */
function startOf(payload: Readonly<Record<string, unknown>>): number {
  const fromSid = sessionStartOf(payload.sid);
  if (fromSid !== undefined) return fromSid;
  const iat = payload.iat;
  return typeof iat === 'number' && Number.isFinite(iat) ? iat * 1000 : -Infinity;
}
