import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex } from '@noble/hashes/utils.js';
import { describe, expect, it } from 'vitest';
import { ServiceUnavailableException } from '../../http/http-exception.js';
import { ALICE, BOB } from '../sessions/issuing/issuing-fixtures.test-helper.js';
import { SIGN_IN_THROTTLED_MESSAGE } from './sign-in-throttle.js';
import { throttledHarness, type Outcome } from './sign-in-throttle.test-helper.js';

const HERE = { clientAddress: '203.0.113.7' };
const ELSEWHERE = { clientAddress: '198.51.100.20' };
const UNAUTHORIZED: Outcome = { status: 401 };

async function fail(t: ReturnType<typeof throttledHarness>, times: number, identifier: string, context?: { clientAddress?: string }): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  for (let i = 0; i < times; i++) outcomes.push(await t.signIn(identifier, 'wrong-password', context));
  return outcomes;
}

describe('sign-in throttling: the threshold', () => {
  it('answers 429 with Retry-After on the 6th attempt after 5 failures from one address on one account', async () => {
    const t = throttledHarness();
    expect(await fail(t, 5, ALICE.identifier, HERE), 'the first 5 failures are checked and refused 401').toEqual(Array(5).fill(UNAUTHORIZED));
    expect(await t.signIn(ALICE.identifier, 'wrong-password', HERE), 'the 6th is throttled for the rest of the minute').toEqual({ status: 429, retryAfter: 60 });
  });

  it('does not check the password of a throttled attempt, even the right one (no Argon2id for a throttled attacker)', async () => {
    const t = throttledHarness();
    await fail(t, 5, ALICE.identifier, HERE);
    const verified = t.verifier.verifyCalls.length;
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE)).toEqual({ status: 429, retryAfter: 60 });
    expect(t.verifier.verifyCalls.length, 'no password verification while throttled').toBe(verified);
    expect(verified, 'every attempt before the threshold was verified').toBe(5);
  });

  it('throttles with one message that names no account or address', async () => {
    const t = throttledHarness();
    await fail(t, 5, ALICE.identifier, HERE);
    const error = await t.service.signIn(ALICE.identifier, 'wrong-password', HERE).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect((error as Error).message).toBe(SIGN_IN_THROTTLED_MESSAGE);
  });

  it('counts concurrent attempts before checking any password: of 20 at once, 5 are checked', async () => {
    const t = throttledHarness();
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => t.signIn(ALICE.identifier, 'wrong-password', HERE)));
    expect(outcomes.filter((o) => o !== 'ok' && o.status === 401), '5 checked').toHaveLength(5);
    expect(outcomes.filter((o) => o !== 'ok' && o.status === 429), '15 throttled').toHaveLength(15);
    expect(t.verifier.verifyCalls).toHaveLength(5);
  });

  it('does not count a successful sign-in: 4 failures then 10 successes leave room for one more failure', async () => {
    const t = throttledHarness();
    await fail(t, 4, ALICE.identifier, HERE);
    for (let i = 0; i < 10; i++) expect(await t.signIn(ALICE.identifier, ALICE.password, HERE)).toBe('ok');
    expect(await t.signIn(ALICE.identifier, 'wrong-password', HERE), 'the 5th failure is still checked').toEqual(UNAUTHORIZED);
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE), 'and then the threshold holds').toEqual({ status: 429, retryAfter: 60 });
  });

  it('counts an identifier however it is typed (case, spaces, Unicode form)', async () => {
    const t = throttledHarness();
    for (const typed of ['ALICE@acme.test', ' alice@acme.test', 'Alice@ACME.test ', 'alice@acme.test', 'ａｌｉｃｅ@acme.test']) await t.signIn(typed, 'wrong-password', HERE);
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE)).toEqual({ status: 429, retryAfter: 60 });
  });

  it('does not count a sign-in that failed for another reason than its credentials (a store outage)', async () => {
    const t = throttledHarness();
    const find = t.credentials.findByIdentifier.bind(t.credentials);
    t.credentials.findByIdentifier = () => Promise.reject(new ServiceUnavailableException('store down'));
    for (let i = 0; i < 10; i++) expect(await t.signIn(ALICE.identifier, ALICE.password, HERE)).toEqual({ status: 503 });
    t.credentials.findByIdentifier = find;
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE), 'the outage left no count').toBe('ok');
  });

  it('fails closed when the counter cannot answer: the error, and no password check', async () => {
    const t = throttledHarness({
      counters: () => ({
        hit: () => Promise.reject(new ServiceUnavailableException('The rate-limit store is unavailable')),
        hitWindow: () => Promise.reject(new ServiceUnavailableException('The rate-limit store is unavailable')),
        release: () => Promise.resolve(),
      }),
    });
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE)).toEqual({ status: 503 });
    expect(t.verifier.verifyCalls).toHaveLength(0);
  });
});

describe('sign-in throttling: existing and unknown accounts', () => {
  it('answers the same sequence, with the same waits, for an existing and an unknown account', async () => {
    const run = async (identifier: string) => {
      const t = throttledHarness();
      const outcomes = await fail(t, 12, identifier, HERE);
      t.clock.advance(60_000);
      outcomes.push(...(await fail(t, 8, identifier, HERE)));
      return { outcomes, counts: t.calls.map((call) => [call.name, call.op, call.window.hits, call.window.waitMs]) };
    };
    const existing = await run(ALICE.identifier);
    const unknown = await run('nobody@acme.test');
    expect(unknown.outcomes, 'the answers').toEqual(existing.outcomes);
    expect(unknown.counts, 'the counts, call by call').toEqual(existing.counts);
    expect(existing.outcomes.some((o) => o !== 'ok' && o.status === 429), 'the sequence reached the throttle').toBe(true);
  });

  it('keys the counts by keyed hashes: no identifier or address in any key', async () => {
    const t = throttledHarness();
    await fail(t, 3, ALICE.identifier, HERE);
    expect(t.calls.length).toBeGreaterThan(0);
    const plain = bytesToHex(sha256(new TextEncoder().encode(ALICE.identifier)));
    for (const call of t.calls) {
      expect(call.key, 'a hex key, so no identifier or address text').toMatch(/^[0-9a-f]+$/);
      expect(plain.startsWith(call.key.slice(0, 32)), 'keyed, not a plain SHA-256 anyone can compute').toBe(false);
    }
    expect(new Set(t.calls.map((call) => call.key)).size, 'account, address and pair keys differ').toBe(3);
  });
});

describe('sign-in throttling: a delay that grows, then expires', () => {
  it('grows the wait with each round of 5 failures (1 min, 14 min, 1 min, 44 min) until the hour ends, then starts over', async () => {
    const t = throttledHarness();
    const waits: unknown[] = [];
    for (let round = 0; round < 5; round++) {
      expect(await fail(t, 5, ALICE.identifier, HERE), `round ${round}: 5 failures checked`).toEqual(Array(5).fill(UNAUTHORIZED));
      const refused = await t.signIn(ALICE.identifier, ALICE.password, HERE);
      const retryAfter = refused === 'ok' ? undefined : refused.retryAfter;
      waits.push(retryAfter);
      t.clock.advance((retryAfter ?? 0) * 1000);
    }
    // 60 s (5 per minute); 840 s (10 per 15 minutes, to its end); 60 s; 2,640 s (20 per hour, to its end); a new hour.
    expect(waits).toEqual([60, 840, 60, 2640, 60]);
  });

  it('lets the right password in once the longest window has ended: no permanent lockout', async () => {
    const t = throttledHarness();
    for (const wait of [60, 840, 60]) {
      await fail(t, 5, ALICE.identifier, HERE);
      t.clock.advance(wait * 1000);
    }
    await fail(t, 5, ALICE.identifier, HERE);
    t.clock.advance(2_639_000);
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE), 'a second before the hour ends').toEqual({ status: 429, retryAfter: 1 });
    t.clock.advance(1_000);
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE), 'the hour has ended').toBe('ok');
  });

  it('rounds Retry-After up to whole seconds', async () => {
    const t = throttledHarness();
    await fail(t, 5, ALICE.identifier, HERE);
    t.clock.advance(59_001);
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE)).toEqual({ status: 429, retryAfter: 1 });
  });
});

describe('sign-in throttling: per address and per account', () => {
  it('throttles the account only from the address that failed: the real user elsewhere signs in', async () => {
    const t = throttledHarness();
    await fail(t, 5, ALICE.identifier, HERE);
    expect(await t.signIn(ALICE.identifier, ALICE.password, ELSEWHERE)).toBe('ok');
    expect(await t.signIn(BOB.identifier, BOB.password, HERE), 'another account from the same address').toBe('ok');
  });

  it('throttles an address spraying many accounts (30 failures in 5 minutes), whatever account it tries next', async () => {
    const t = throttledHarness();
    for (let i = 0; i < 30; i++) expect(await t.signIn(`user${i}@acme.test`, 'Winter2026!', HERE)).toEqual(UNAUTHORIZED);
    expect(await t.signIn(BOB.identifier, BOB.password, HERE), 'the address is throttled').toEqual({ status: 429, retryAfter: 300 });
    expect(await t.signIn(BOB.identifier, BOB.password, ELSEWHERE), 'not the account').toBe('ok');
  });

  it('counts IPv6 clients by /64: another address in the prefix is the same client, another prefix is not', async () => {
    const t = throttledHarness();
    for (let i = 1; i <= 5; i++) await t.signIn(ALICE.identifier, 'wrong-password', { clientAddress: `2001:db8:0:1::${i}` });
    expect(await t.signIn(ALICE.identifier, ALICE.password, { clientAddress: '2001:db8:0:1:ffff::99' })).toEqual({ status: 429, retryAfter: 60 });
    expect(await t.signIn(ALICE.identifier, ALICE.password, { clientAddress: '2001:db8:0:2::1' })).toBe('ok');
  });

  it('bounds guessing from many addresses (50 per hour per account) without locking the real user out', async () => {
    const t = throttledHarness();
    for (let i = 0; i < 50; i++) await t.signIn(ALICE.identifier, 'wrong-password', { clientAddress: `192.0.2.${i}` });
    expect(await t.signIn(ALICE.identifier, 'wrong-password', { clientAddress: '192.0.2.1' }), 'an address that already failed on the account').toEqual({ status: 429, retryAfter: 3600 });
    expect(await t.signIn(ALICE.identifier, 'wrong-password', { clientAddress: '192.0.2.200' }), 'a new attacking address gets its one guess').toEqual(UNAUTHORIZED);
    expect(await t.signIn(ALICE.identifier, 'wrong-password', { clientAddress: '192.0.2.200' }), 'and no second').toEqual({ status: 429, retryAfter: 3600 });
    expect(await t.signIn(ALICE.identifier, ALICE.password, ELSEWHERE), 'the real user, from an address with no failure').toBe('ok');
  });

  it('without a client address counts the account alone, and refuses every such caller past its tiers', async () => {
    const t = throttledHarness();
    expect(await fail(t, 50, ALICE.identifier), 'no per-address tiers apply: 50 checked').toEqual(Array(50).fill(UNAUTHORIZED));
    expect(await t.signIn(ALICE.identifier, ALICE.password), 'the account is over its hour').toEqual({ status: 429, retryAfter: 3600 });
    expect(await t.signIn(ALICE.identifier, ALICE.password, HERE), 'a caller with a clean address still gets in').toBe('ok');
  });
});

describe('sign-in throttling: configured tiers', () => {
  it('refuses every caller past the account tier when no account+address tier remembers who failed', async () => {
    const t = throttledHarness({ perAccountAndAddress: [], perAddress: [], perAccount: [{ failures: 3, windowSeconds: 600 }] });
    for (let i = 0; i < 3; i++) await t.signIn(ALICE.identifier, 'wrong-password', { clientAddress: `192.0.2.${i}` });
    expect(await t.signIn(ALICE.identifier, ALICE.password, ELSEWHERE)).toEqual({ status: 429, retryAfter: 600 });
  });

  it('counts nothing on a dimension with no tiers', async () => {
    const t = throttledHarness({ perAccountAndAddress: [], perAddress: [], perAccount: [] });
    expect(await fail(t, 30, ALICE.identifier, HERE)).toEqual(Array(30).fill(UNAUTHORIZED));
    expect(t.calls).toEqual([]);
  });
});

describe('sign-in throttling: telemetry', () => {
  it('logs once when a failure reaches a threshold, with an 8-character prefix of the hashed key and no identifier', async () => {
    const t = throttledHarness();
    await fail(t, 6, ALICE.identifier, HERE);
    const started = t.lines.filter((line) => line.event === 'auth.sign-in.throttling-started');
    expect(started, 'one line: the pair reached 5 per minute').toHaveLength(1);
    expect(started[0]).toMatchObject({ level: 'warn', dimension: 'account-address', failures: 5, windowSeconds: 60 });
    expect(started[0]?.key).toMatch(/^[0-9a-f]{8}$/);
    expect(JSON.stringify(t.lines)).not.toContain('alice');
    expect(JSON.stringify(t.lines)).not.toContain('203.0.113.7');
  });
});
