// SessionRevocations against an independent model: a list of every revocation ever made and the
// clock, for arbitrary interleavings of session and subject revocations, clock moves and token
// checks, on a small alphabet of subjects and sessions so that they collide often, and cutoffs that
// often fall exactly on a session's start or a whole second.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/index.js';
import { newSessionId, sessionStartOf } from '../../lib/auth/sessions/state/session-id.js';
import { SessionRevocations } from '../../lib/auth/sessions/state/session-revocations.js';

const RUNS = { numRuns: 500 };
const T0 = Date.parse('2026-11-25T12:00:00Z');

// Sessions named by their start offset from T0, so the model knows each one's start.
const SESSIONS = [0, 1, 999, 1000, 1001, 5000].map((offset) => ({ id: newSessionId(T0 + offset), start: T0 + offset }));
const SUBJECTS = ['u1', 'u2'];

type Op =
  | { readonly op: 'session'; readonly session: number; readonly ttl: number }
  | { readonly op: 'subject'; readonly subject: number; readonly cutoffOffset: number; readonly ttl: number }
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'check'; readonly subject: number; readonly session: number | undefined; readonly iatOffset: number | undefined };

// Lifetimes and clock moves meet exactly often enough to catch an off-by-one at expiry.
const ttlArb = fc.oneof(fc.constantFrom(1, 1000), fc.integer({ min: 1, max: 3000 }));
const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant('session' as const), session: fc.nat(SESSIONS.length - 1), ttl: ttlArb }),
  fc.record({ op: fc.constant('subject' as const), subject: fc.nat(SUBJECTS.length - 1), cutoffOffset: fc.oneof(fc.constantFrom(-1000, 0, 1, 999, 1000, 1001, 2000, 5000), fc.integer({ min: -1000, max: 6000 })), ttl: ttlArb }),
  fc.record({ op: fc.constant('advance' as const), ms: fc.oneof(fc.constantFrom(0, 1, 1000), fc.integer({ min: 0, max: 2000 })) }),
  fc.record({
    op: fc.constant('check' as const),
    subject: fc.nat(SUBJECTS.length - 1),
    session: fc.option(fc.nat(SESSIONS.length - 1), { nil: undefined }),
    iatOffset: fc.option(fc.integer({ min: -2, max: 6 }), { nil: undefined }),
  }),
);

/** The spec's sentences, with no map, no pruning and no merging. */
function modelRevoked(events: readonly { kind: 'session' | 'subject'; key: string; cutoff: number; until: number }[], now: number, sub: string, sid: string | undefined, start: number): boolean {
  return events.some((event) => now < event.until && (event.kind === 'session' ? event.key === sid : event.key === sub && start < event.cutoff));
}

describe('SessionRevocations (property)', () => {
  it('refuses exactly what the list of revocations says, at every moment', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 60 }), (ops) => {
        const clock = createManualClock(T0);
        const registry = new SessionRevocations(clock);
        const events: { kind: 'session' | 'subject'; key: string; cutoff: number; until: number }[] = [];
        for (const op of ops) {
          const now = clock.now();
          if (op.op === 'session') {
            const id = (SESSIONS[op.session] as { id: string }).id;
            registry.revokeSession(id, now + op.ttl);
            events.push({ kind: 'session', key: id, cutoff: 0, until: now + op.ttl });
          } else if (op.op === 'subject') {
            const cutoff = T0 + op.cutoffOffset;
            registry.revokeSubject(SUBJECTS[op.subject] as string, cutoff, cutoff + op.ttl);
            events.push({ kind: 'subject', key: SUBJECTS[op.subject] as string, cutoff, until: cutoff + op.ttl });
          } else if (op.op === 'advance') {
            clock.advance(op.ms);
          } else {
            const session = op.session === undefined ? undefined : SESSIONS[op.session];
            const iat = op.iatOffset === undefined ? undefined : Math.floor(T0 / 1000) + op.iatOffset;
            const payload: Record<string, unknown> = { sub: SUBJECTS[op.subject] };
            if (session !== undefined) payload.sid = session.id;
            if (iat !== undefined) payload.iat = iat;
            // The model's start: the session's, else iat in ms, else before any cutoff.
            const start = session?.start ?? (iat === undefined ? -Infinity : iat * 1000);
            const expected = modelRevoked(events, now, SUBJECTS[op.subject] as string, session?.id, start);
            if (registry.isRevoked(payload) !== expected) return false;
          }
        }
        return true;
      }),
      RUNS,
    );
  });

  it('reads back the start every session id was made with', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (ms) => sessionStartOf(newSessionId(ms)) === ms),
      RUNS,
    );
  });

  it('makes RFC 9562 version-7 UUIDs, different even within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newSessionId(T0));
    for (const id of ids) expect(id, 'version 7, variant 10').toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size, '74 random bits per id').toBe(1000);
  });

  it('reads no start from a version-4 UUID or anything else, so those count from iat', () => {
    expect(sessionStartOf(crypto.randomUUID()), 'a version-4 family id').toBeUndefined();
    expect(sessionStartOf('not-a-session'), 'a string').toBeUndefined();
    expect(sessionStartOf(42), 'a number').toBeUndefined();
  });
});
