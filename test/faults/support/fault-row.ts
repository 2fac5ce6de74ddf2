import type { ScenarioResult } from './fault-scenario.js';
import type { LoadAnswer } from './steady-load.js';

/**
 * The markdown header of the fault matrix; one {@link faultRow} per scenario goes under it.
 *
 * @example
 * console.info(`${FAULT_TABLE_HEADER}\n${rows.join('\n')}`);
 */
export const FAULT_TABLE_HEADER = [
  '| fault | longest answer during it (write / key read) | answers during it, by status | writes answered 201: stored once / 5xx: stored | pushes to the socket on B | revoked key (ms from the DELETE): A / B / its socket on B | readiness during it (both instances) | time to recover |',
  '| --- | --- | --- | --- | --- | --- | --- | --- |',
].join('\n');

/**
 * `201×40 503×3`, statuses in ascending order (0: no answer).
 *
 * @example
 * byStatus(result.duringFault.filter((answer) => answer.kind === 'write')); // '201×10 503×89'
 */
export function byStatus(answers: readonly LoadAnswer[]): string {
  const counts = new Map<number, number>();
  for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
  return [...counts].sort(([x], [y]) => x - y).map(([status, n]) => `${status}×${n}`).join(' ') || 'none';
}

const longest = (answers: readonly LoadAnswer[]) => Math.max(0, ...answers.map((answer) => answer.ms));
const ms = (value: number) => `${Math.round(value)} ms`;

/**
 * One markdown row of the fault matrix.
 *
 * @example
 * console.info(`${FAULT_TABLE_HEADER}\n${faultRow('Redis stopped, then started', result)}`);
 */
export function faultRow(name: string, result: ScenarioResult): string {
  const writes = result.duringFault.filter((answer) => answer.kind === 'write');
  const reads = result.duringFault.filter((answer) => answer.kind === 'read');
  const created = result.writes.filter(({ answer }) => answer.status === 201);
  const failed = result.writes.filter(({ answer }) => answer.status >= 500);
  const loadCreated = result.answers.filter((answer) => answer.kind === 'write' && answer.status === 201).length;
  const committed = result.retried?.revocation ?? result.revocation;
  const revocation = [
    result.retried === undefined ? '' : `revoke ${result.revocation.status} during it (key still ${result.retried.keyBefore} after), revoked after recovery: `,
    `A ${committed.onA} at once`,
    `B 401 after ${committed.bRefusedAfterMs === undefined ? '>1.5 s' : ms(committed.bRefusedAfterMs)}`,
    `socket ${result.victimSocket === 'open' ? 'still open' : `${result.victimSocket.code} after ${ms(result.victimSocket.afterMs)}`}`,
  ];
  const readiness = [...result.readiness].map(([what, n]) => `${what} ×${n}`).join('; ');
  return [
    name,
    `${ms(longest(writes))} / ${ms(longest(reads))}`,
    `writes ${byStatus(writes)}; key reads ${byStatus(reads)}`,
    `${created.filter(({ stored }) => stored === 1).length}/${created.length} / ${failed.filter(({ stored }) => stored > 0).length}/${failed.length}`,
    `${result.pushed} of ${loadCreated} created`,
    `${revocation[0]}${revocation.slice(1).join(' / ')}`,
    readiness,
    result.recovery.ms === undefined ? `not within the limit (${result.recovery.lastFailure})` : ms(result.recovery.ms),
  ].reduce((row, cell) => `${row} ${cell} |`, '|');
}
