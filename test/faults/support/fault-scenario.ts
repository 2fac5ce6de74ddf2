import { request, type TenantsProcess } from '../../postgres/support/tenants-process.js';
import type { PushLog } from './push-log.js';
import { timeToRecover, type Recovery } from './recovery-probe.js';
import { keyRead, prepareVictim, revokeThroughA, socketEnd, type RevocationOutcome } from './revocation-under-fault.js';
import { startSteadyLoad, type LoadAnswer, type LoadTarget } from './steady-load.js';

/** A fault an engine can be put through: `begin` brings it about, `end` undoes it (resolving once the engine is back). */
export interface Fault {
  /** Short, for titles: `redis-stopped`. */
  readonly slug: string;
  begin(): Promise<void>;
  end(): Promise<void>;
}

/** What one scenario needs besides its fault. */
export interface ScenarioSetup {
  readonly target: LoadTarget;
  /** The load's live socket on B (opened with alice's token). */
  readonly pushes: PushLog;
  /** How many rows hold each title starting with the prefix, read from the database itself. */
  readonly countStored: (prefix: string) => Promise<Map<string, number>>;
  /** Steady load before the fault, ms. */
  readonly baselineMs?: number;
  /** From the fault's start to its end being asked for, ms. */
  readonly faultMs?: number;
  /** From the fault's start to the revocation, ms (the stalled-bus case needs the heartbeat's 2 s). */
  readonly revokeAfterMs?: number;
  /** The longest wait for every probe to succeed after the fault, ms. */
  readonly recoverWithinMs?: number;
}

/** Everything a scenario measured. Times are performance.now() readings or ms. */
export interface ScenarioResult {
  readonly prefix: string;
  readonly answers: LoadAnswer[];
  readonly faultStart: number;
  readonly faultEnd: number;
  /** Load answers whose time in flight overlapped the fault. */
  readonly duringFault: LoadAnswer[];
  /** Readiness answers during the fault (`200 degraded database:down`), counted. */
  readonly readiness: Map<string, number>;
  /** The revocation made during the fault. */
  readonly revocation: RevocationOutcome;
  /** When that one was not committed (5xx): the key's status on A after recovery (200: nothing changed), and the revocation made then. */
  readonly retried?: { readonly keyBefore: number; readonly revocation: RevocationOutcome };
  /** The victim's socket on B: its close code and ms after the committed revocation was sent, or 'open'. */
  readonly victimSocket: { code: number; afterMs: number } | 'open';
  /** The revoked key's status on A and B once everything is over. */
  readonly finalRefusal: { readonly a: number; readonly b: number };
  readonly recovery: Recovery;
  /** Every write (load and probes) with how many rows hold its title. */
  readonly writes: { readonly answer: LoadAnswer; readonly stored: number }[];
  /** Pushes of load writes that reached the socket on B. */
  readonly pushed: number;
  readonly loadSocketOpen: boolean;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Samples /health/ready on both instances every 250 ms until `stop` is called. */
function sampleReadiness(instances: readonly TenantsProcess[]): { stop(): Promise<Map<string, number>> } {
  const seen = new Map<string, number>();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await Promise.all(
        instances.map(async (on) => {
          let what: string;
          try {
            const answer = await request(on.url, 'GET', '/health/ready', { timeoutMs: 5_000 });
            const body = answer.json as { status?: string; checks?: Record<string, { status: string }> } | undefined;
            const down = Object.entries(body?.checks ?? {}).filter(([, check]) => check.status === 'down').map(([name]) => name);
            what = `${answer.status} ${body?.status ?? '?'}${down.length === 0 ? '' : ` (${down.join(', ')} down)`}`;
          } catch {
            what = 'no answer';
          }
          seen.set(what, (seen.get(what) ?? 0) + 1);
        }),
      );
      await pause(250);
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
      return seen;
    },
  };
}

/**
 * One row of the fault matrix: a steady load on A and B, `baselineMs` of it, the fault for
 * `faultMs` with an API key revoked through A `revokeAfterMs` into it, the fault's end, probe
 * rounds until everything works on both instances, then the writes checked against the database.
 *
 * @example
 * const result = await runFaultScenario({ slug: 'redis-stopped', begin: redis.stop, end: redis.start }, setup);
 */
export async function runFaultScenario(fault: Fault, setup: ScenarioSetup): Promise<ScenarioResult> {
  const { target, pushes } = setup;
  const { a, b } = target;
  const prefix = `fault-${fault.slug}-${Date.now()}`;
  const victim = await prepareVictim(a, b, target.bearer, target.readPath);

  const load = startSteadyLoad(target, prefix);
  await pause(setup.baselineMs ?? 1_000);

  const faultStart = performance.now();
  let sampler: ReturnType<typeof sampleReadiness> | undefined;
  let revocation: RevocationOutcome;
  let readiness: Map<string, number>;
  try {
    await fault.begin();
    sampler = sampleReadiness([a, b]);
    await pause(Math.max(0, faultStart + (setup.revokeAfterMs ?? 1_500) - performance.now()));
    revocation = await revokeThroughA(a, b, target.bearer, victim, target.readPath);
    await pause(Math.max(0, faultStart + (setup.faultMs ?? 4_000) - performance.now()));
  } finally {
    // Whatever failed, the engine comes back for the next scenario.
    readiness = (await sampler?.stop()) ?? new Map();
    await fault.end();
  }
  const faultEnd = performance.now();
  let committedAt = revocation.status === 204 ? revocation.sentAt : undefined;

  const recovery = await timeToRecover(target, pushes, `${prefix}-probe`, faultEnd, setup.recoverWithinMs ?? 15_000);
  let retried: ScenarioResult['retried'];
  if (revocation.status !== 204) {
    const keyBefore = await keyRead(a, victim.key, target.readPath);
    const again = await revokeThroughA(a, b, target.bearer, victim, target.readPath);
    if (again.status === 204) committedAt = again.sentAt;
    retried = { keyBefore, revocation: again };
  }
  const victimSocket = committedAt === undefined ? 'open' : await socketEnd(victim, committedAt, 3_000);
  victim.socket.ws.terminate();
  const finalRefusal = { a: await keyRead(a, victim.key, target.readPath), b: await keyRead(b, victim.key, target.readPath) };

  const answers = await load.stop();
  await pause(300); // the last writes' pushes
  const stored = await setup.countStored(prefix);
  const writes = [...answers, ...recovery.writes].filter((answer) => answer.kind === 'write').map((answer) => ({ answer, stored: stored.get(answer.title ?? '') ?? 0 }));
  return {
    prefix,
    answers,
    faultStart,
    faultEnd,
    duringFault: answers.filter((answer) => answer.sentAt <= faultEnd && answer.sentAt + answer.ms >= faultStart),
    readiness,
    revocation,
    ...(retried === undefined ? {} : { retried }),
    victimSocket,
    finalRefusal,
    recovery,
    writes,
    pushed: pushes.countWithPrefix(`${prefix}-`) - pushes.countWithPrefix(`${prefix}-probe`),
    loadSocketOpen: pushes.open(),
  };
}
