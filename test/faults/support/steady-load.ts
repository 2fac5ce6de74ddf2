import { randomUUID } from 'node:crypto';
import { request, type TenantsProcess } from '../../postgres/support/tenants-process.js';

/** One request of the steady load, as the client saw it (status 0: no answer at all). */
export interface LoadAnswer {
  readonly kind: 'write' | 'read';
  readonly on: 'A' | 'B';
  /** performance.now() when it was sent. */
  readonly sentAt: number;
  readonly ms: number;
  readonly status: number;
  /** The write's unique title (what the database check looks for). */
  readonly title?: string;
}

/** What the load needs: the two instances and the credentials it writes and reads with. */
export interface LoadTarget {
  readonly a: TenantsProcess;
  readonly b: TenantsProcess;
  /** alice's bearer header: writes (a token route, not rate-limited by key). */
  readonly bearer: Record<string, string>;
  /** A long-lived API key with posts:read: reads (cached records, the Redis counter). */
  readonly readKey: string;
  /** An existing post read with the key: the same cost however many posts the load has written. */
  readonly readPath: string;
}

/** The longest a load request may wait for its answer before it is recorded as unanswered, ms. */
const NO_ANSWER_AFTER_MS = 10_000;

/**
 * Writes one post with a unique title and an Idempotency-Key (an RFC 8941 string), timed.
 *
 * @example
 * const answer = await writePost(target, 'A', 'fault-redis-1');
 */
export async function writePost(target: LoadTarget, on: 'A' | 'B', title: string): Promise<LoadAnswer> {
  const sentAt = performance.now();
  const instance = on === 'A' ? target.a : target.b;
  try {
    const answer = await request(instance.url, 'POST', '/tenants/acme/posts', {
      headers: { ...target.bearer, 'idempotency-key': `"${randomUUID()}"` },
      json: { title },
      timeoutMs: NO_ANSWER_AFTER_MS,
    });
    return { kind: 'write', on, sentAt, ms: answer.ms, status: answer.status, title };
  } catch {
    return { kind: 'write', on, sentAt, ms: performance.now() - sentAt, status: 0, title };
  }
}

/**
 * Reads the load's post with the API key, timed.
 *
 * @example
 * const answer = await readWithKey(target, 'B');
 */
export async function readWithKey(target: LoadTarget, on: 'A' | 'B'): Promise<LoadAnswer> {
  const sentAt = performance.now();
  const instance = on === 'A' ? target.a : target.b;
  try {
    const answer = await request(instance.url, 'GET', target.readPath, { headers: { 'x-api-key': target.readKey }, timeoutMs: NO_ANSWER_AFTER_MS });
    return { kind: 'read', on, sentAt, ms: answer.ms, status: answer.status };
  } catch {
    return { kind: 'read', on, sentAt, ms: performance.now() - sentAt, status: 0 };
  }
}

/** A running steady load: `stop` ends the ticks and waits for every request in flight. */
export interface SteadyLoad {
  stop(): Promise<LoadAnswer[]>;
}

/**
 * Every `everyMs`, alternately on A and B, one write (titled `${prefix}-${n}`) and one key read,
 * each sent without waiting for earlier ones: a slow answer never slows the load down.
 *
 * @example
 * const load = startSteadyLoad(target, 'fault-redis-stopped'); ...; const answers = await load.stop();
 */
export function startSteadyLoad(target: LoadTarget, prefix: string, everyMs = 50): SteadyLoad {
  const answers: LoadAnswer[] = [];
  const inFlight = new Set<Promise<void>>();
  let tick = 0;
  const send = (pending: Promise<LoadAnswer>) => {
    const done = pending.then((answer) => void answers.push(answer));
    inFlight.add(done);
    void done.finally(() => inFlight.delete(done));
  };
  const timer = setInterval(() => {
    const on = tick % 2 === 0 ? 'A' : 'B';
    send(writePost(target, on, `${prefix}-${tick}`));
    send(readWithKey(target, on));
    tick++;
  }, everyMs);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return answers;
    },
  };
}
