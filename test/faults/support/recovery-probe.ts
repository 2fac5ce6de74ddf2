import { request, type TenantsProcess } from '../../postgres/support/tenants-process.js';
import type { PushLog } from './push-log.js';
import { readWithKey, writePost, type LoadAnswer, type LoadTarget } from './steady-load.js';

/** When every probe first succeeded on both instances, or why the last round did not. */
export interface Recovery {
  /** ms from `since` to the end of the first round where every probe succeeded; undefined: none within the limit. */
  readonly ms: number | undefined;
  /** The failures of the last round that failed ('' if none failed). */
  readonly lastFailure: string;
  /** The probe writes, for the stored-writes check. */
  readonly writes: LoadAnswer[];
}

async function readiness(on: TenantsProcess): Promise<string> {
  try {
    const answer = await request(on.url, 'GET', '/health/ready', { timeoutMs: 5_000 });
    return `${answer.status} ${(answer.json as { status?: string } | undefined)?.status ?? answer.text}`;
  } catch {
    return 'no answer';
  }
}

/**
 * Probe rounds, one after another, until one succeeds entirely: on A and on B a write (201), a
 * key read (200) and readiness (200 `ok`), and both writes pushed to the live socket within 1 s.
 *
 * @example
 * const recovery = await timeToRecover(target, pushes, 'fault-redis-probe', faultEnd, 10_000);
 */
export async function timeToRecover(target: LoadTarget, pushes: PushLog, prefix: string, since: number, limitMs: number): Promise<Recovery> {
  const writes: LoadAnswer[] = [];
  let lastFailure = '';
  for (let round = 0; performance.now() - since < limitMs; round++) {
    const [writeA, writeB, readA, readB, readyA, readyB] = await Promise.all([
      writePost(target, 'A', `${prefix}-${round}-A`),
      writePost(target, 'B', `${prefix}-${round}-B`),
      readWithKey(target, 'A'),
      readWithKey(target, 'B'),
      readiness(target.a),
      readiness(target.b),
    ]);
    writes.push(writeA, writeB);
    const failures = [
      writeA.status === 201 ? '' : `write A ${writeA.status}`,
      writeB.status === 201 ? '' : `write B ${writeB.status}`,
      readA.status === 200 ? '' : `key read A ${readA.status}`,
      readB.status === 200 ? '' : `key read B ${readB.status}`,
      readyA === '200 ok' ? '' : `readiness A ${readyA}`,
      readyB === '200 ok' ? '' : `readiness B ${readyB}`,
    ].filter((failure) => failure !== '');
    if (failures.length === 0) {
      const pushed = [writeA.title, writeB.title].filter((title): title is string => title !== undefined);
      if (await pushes.waitFor(pushed, 1_000)) return { ms: performance.now() - since, lastFailure, writes };
      failures.push('the writes were not pushed to the socket on B within 1 s');
    }
    lastFailure = failures.join(', ');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { ms: undefined, lastFailure, writes };
}
