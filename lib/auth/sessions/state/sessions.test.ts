// Sessions per device on TokenIssuingService: the list (started, last used, user agent, client
// address), ending one (only the caller's own; another person's id answers as an unknown one),
// ending all others; on every in-memory store variant that can list.
import { describe, expect, it } from 'vitest';
import { createInMemoryRefreshTokenStore } from '../issuing/in-memory-store-variants.test-helper.js';
import { ALICE, BOB, T0_MS, createHarness, createHarnessWithStore, expectInvalidCredentials, rejectionOf } from '../issuing/issuing-fixtures.test-helper.js';
import { createManualClock } from '../../../index.js';
import { MAX_USER_AGENT_LENGTH } from './session-info.js';

const FIREFOX = { userAgent: 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0', clientAddress: '203.0.113.7' };
const PHONE = { userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1', clientAddress: '2001:db8::42' };
const sidOf = (store: { records(): readonly { familyId: string | null }[] }) => store.records().at(-1)?.familyId as string;

describe.each([
  ['atomic rotate', { rotate: true, revokeFamily: true }],
  ['successor-first rotation', { rotate: false, revokeFamily: true }],
] as const)('sessions per device, store: %s', (_name, variant) => {
  it('lists each sign-in with its start, last use, user agent and client address, oldest first', async () => {
    const { service, clock, store } = createHarness(variant);
    await service.signIn(ALICE.identifier, ALICE.password, FIREFOX);
    const firefox = sidOf(store);
    clock.advance(60_000);
    await service.signIn(ALICE.identifier, ALICE.password, PHONE);
    const phone = sidOf(store);
    expect(await service.listSessions(ALICE.subject)).toEqual([
      { id: firefox, startedAt: new Date(T0_MS), lastUsedAt: new Date(T0_MS), ...FIREFOX },
      { id: phone, startedAt: new Date(T0_MS + 60_000), lastUsedAt: new Date(T0_MS + 60_000), ...PHONE },
    ]);
  });

  it('moves lastUsedAt to each refresh and keeps startedAt and the sign-in\'s metadata', async () => {
    const { service, clock } = createHarness(variant);
    const pair = await service.signIn(ALICE.identifier, ALICE.password, FIREFOX);
    clock.advance(600_000);
    await service.refresh(pair.refreshToken);
    const [session] = await service.listSessions(ALICE.subject);
    expect(session, 'one session, still').toMatchObject({ startedAt: new Date(T0_MS), lastUsedAt: new Date(T0_MS + 600_000), ...FIREFOX });
    expect(await service.listSessions(ALICE.subject)).toHaveLength(1);
  });

  it('keeps at most 256 characters of the user agent and answers null for what sign-in was not told', async () => {
    const { service } = createHarness(variant);
    await service.signIn(ALICE.identifier, ALICE.password, { userAgent: 'x'.repeat(5_000) });
    await service.signIn(ALICE.identifier, ALICE.password);
    const [long, bare] = await service.listSessions(ALICE.subject);
    expect(long?.userAgent).toBe('x'.repeat(MAX_USER_AGENT_LENGTH));
    expect(long?.clientAddress).toBeNull();
    expect(bare).toMatchObject({ userAgent: null, clientAddress: null });
  });

  it('leaves out signed-out and expired sessions, and other people\'s', async () => {
    const { service, clock } = createHarness({ ...variant });
    const signedOut = await service.signIn(ALICE.identifier, ALICE.password);
    await service.signOut(signedOut.refreshToken);
    await service.signIn(BOB.identifier, BOB.password);
    expect(await service.listSessions(ALICE.subject), 'signed out, and bob\'s is not alice\'s').toEqual([]);
    await service.signIn(ALICE.identifier, ALICE.password);
    clock.advance(3_600_000); // the harness's refresh-token lifetime
    expect(await service.listSessions(ALICE.subject), 'expired').toEqual([]);
  });

  it('revokeSession ends the caller\'s own session: its refresh token is refused, the others kept', async () => {
    const { service, store } = createHarness(variant);
    const pair = await service.signIn(ALICE.identifier, ALICE.password);
    const sid = sidOf(store);
    const kept = await service.signIn(ALICE.identifier, ALICE.password);
    expect(await service.revokeSession(ALICE.subject, sid)).toBe(true);
    expectInvalidCredentials(await rejectionOf(service.refresh(pair.refreshToken)));
    expect((await service.listSessions(ALICE.subject)).map((s) => s.id)).toEqual([sidOf(store)]);
    await expect(service.refresh(kept.refreshToken), 'the other session is untouched').resolves.toHaveProperty('refreshToken');
  });

  it('revokeSession answers false alike for another person\'s session and an unknown id, and ends nothing', async () => {
    const { service, store } = createHarness(variant);
    const bobs = await service.signIn(BOB.identifier, BOB.password);
    const bobSid = sidOf(store);
    await service.signIn(ALICE.identifier, ALICE.password);
    const before = store.records();
    expect(await service.revokeSession(ALICE.subject, bobSid), 'bob\'s session, asked by alice').toBe(false);
    expect(await service.revokeSession(ALICE.subject, '019ab3c4-5d6e-7f01-8a2b-3c4d5e6f7a8b'), 'an unknown id').toBe(false);
    expect(await service.revokeSession(ALICE.subject, ''), 'an empty id').toBe(false);
    expect(store.records(), 'nothing changed').toEqual(before);
    await expect(service.refresh(bobs.refreshToken)).resolves.toHaveProperty('refreshToken');
  });

  it('revokeOtherSessions ends every session of the subject but the one kept', async () => {
    const { service, store } = createHarness(variant);
    const first = await service.signIn(ALICE.identifier, ALICE.password);
    const current = await service.signIn(ALICE.identifier, ALICE.password);
    const currentSid = sidOf(store);
    const third = await service.signIn(ALICE.identifier, ALICE.password);
    const bobs = await service.signIn(BOB.identifier, BOB.password);
    await service.revokeOtherSessions(ALICE.subject, currentSid);
    expect((await service.listSessions(ALICE.subject)).map((s) => s.id)).toEqual([currentSid]);
    for (const ended of [first, third]) expectInvalidCredentials(await rejectionOf(service.refresh(ended.refreshToken)));
    await expect(service.refresh(current.refreshToken)).resolves.toHaveProperty('refreshToken');
    await expect(service.refresh(bobs.refreshToken), 'another person is untouched').resolves.toHaveProperty('refreshToken');
  });
});

describe('sessions per device, store without listSessions', () => {
  it('listSessions, revokeSession and revokeOtherSessions reject with an Error naming what the store lacks', async () => {
    const clock = createManualClock(T0_MS);
    const { service } = createHarnessWithStore(createInMemoryRefreshTokenStore({ rotate: true, revokeFamily: false, clock }), clock);
    await expect(service.listSessions(ALICE.subject)).rejects.toThrow(/listSessions and revokeFamily/);
    await expect(service.revokeSession(ALICE.subject, 'x')).rejects.toThrow(/listSessions and revokeFamily/);
    await expect(service.revokeOtherSessions(ALICE.subject, 'x')).rejects.toThrow(/listSessions and revokeFamily/);
  });
});
