import { request, type TenantsProcess } from '../../postgres/support/tenants-process.js';
import { openSocket, type SocketRecord } from '../../websocket/socket-client.js';

/** A fresh API key, used (so cached) on A and B, with a live socket opened with it on B. */
export interface Victim {
  readonly id: string;
  readonly key: string;
  readonly socket: SocketRecord;
  /** performance.now() when its socket closed, once it has. */
  closedAt(): number | undefined;
}

/** What became of one revocation: its answer, who refused the key when, and the key's socket. */
export interface RevocationOutcome {
  /** The DELETE's status and time (5xx: nothing was revoked, and it is retried once recovered). */
  readonly status: number;
  readonly ms: number;
  /**
   * performance.now() when the DELETE was sent: the times below count from there, since B may
   * act on the committed revocation before A has answered (A publishes it first, for up to 250 ms).
   */
  readonly sentAt: number;
  /** A's answer to the key right after the DELETE's answer (401 expected at once after a 204). */
  readonly onA: number;
  /** ms from the DELETE's sending until B answered 401; undefined if not within the wait. */
  readonly bRefusedAfterMs: number | undefined;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The status of one key read on `on` (0: no answer).
 *
 * @example
 * expect(await keyRead(a, victim.key, '/tenants/acme/posts/1')).toBe(401);
 */
export async function keyRead(on: TenantsProcess, key: string, path: string): Promise<number> {
  try {
    return (await request(on.url, 'GET', path, { headers: { 'x-api-key': key }, timeoutMs: 5_000 })).status;
  } catch {
    return 0;
  }
}

/**
 * Creates a key through A, reads with it on A and B (both cache its record) and opens a live
 * socket with it on B.
 *
 * @example
 * const victim = await prepareVictim(a, b, bearer, '/tenants/acme/posts/1');
 */
export async function prepareVictim(a: TenantsProcess, b: TenantsProcess, bearer: Record<string, string>, readPath: string): Promise<Victim> {
  const created = await request(a.url, 'POST', '/tenants/acme/api-keys', { headers: bearer, json: { name: 'revoked under a fault', scopes: ['posts:read'] } });
  if (created.status !== 201) throw new Error(`creating the victim key answered ${created.status}: ${created.text}`);
  const { id, key } = created.json as { id: string; key: string };
  for (const on of [a, b]) {
    const status = await keyRead(on, key, readPath);
    if (status !== 200) throw new Error(`the victim key answered ${status} on ${on.url} before the fault`);
  }
  const socket = await openSocket(`${b.url.replace('http://', 'ws://')}/tenants/acme/live`, { headers: { 'x-api-key': key } });
  let closedAt: number | undefined;
  void socket.closed.then(() => (closedAt = performance.now()));
  return { id, key, socket, closedAt: () => closedAt };
}

/**
 * Revokes the key through A, reads with it on A at once, and after a 204 polls B every 50 ms
 * until it answers 401, for up to `waitMs` from the DELETE's sending.
 *
 * @example
 * const outcome = await revokeThroughA(a, b, bearer, victim, readPath);
 */
export async function revokeThroughA(a: TenantsProcess, b: TenantsProcess, bearer: Record<string, string>, victim: Victim, readPath: string, waitMs = 1_500): Promise<RevocationOutcome> {
  let revoked: { status: number; ms: number };
  const sentAt = performance.now();
  try {
    revoked = await request(a.url, 'DELETE', `/tenants/acme/api-keys/${victim.id}`, { headers: bearer, timeoutMs: 10_000 });
  } catch {
    revoked = { status: 0, ms: 10_000 };
  }
  const onA = await keyRead(a, victim.key, readPath);
  if (revoked.status !== 204) return { status: revoked.status, ms: revoked.ms, sentAt, onA, bRefusedAfterMs: undefined };
  let bRefusedAfterMs: number | undefined;
  while (performance.now() - sentAt < waitMs) {
    if ((await keyRead(b, victim.key, readPath)) === 401) {
      bRefusedAfterMs = performance.now() - sentAt;
      break;
    }
    await pause(50);
  }
  return { status: revoked.status, ms: revoked.ms, sentAt, onA, bRefusedAfterMs };
}

/**
 * How the victim's socket ended by `since + ms`: its close code and how long after `since`, or 'open'.
 *
 * @example
 * const closed = await socketEnd(victim, since, 3_000);
 */
export async function socketEnd(victim: Victim, since: number, ms: number): Promise<{ code: number; afterMs: number } | 'open'> {
  const end = await Promise.race([victim.socket.closed, pause(Math.max(0, since + ms - performance.now())).then(() => 'open' as const)]);
  return end === 'open' ? 'open' : { code: end.code, afterMs: (victim.closedAt() ?? performance.now()) - since };
}
