import type { Logger } from '../logging/logger.js';
import type { InjectionToken } from '../di/token.js';
import type { HealthCheck } from '../common/health-check.js';
import type { PlainAnswer } from '../http/answer.js';

/**
 * Options of the health endpoints: `createApp(root, { health: { checks: [...] } })`, or
 * `health: true` for the defaults.
 *
 * @example
 * createApp(AppModule, { health: { checks: [postgresHealthCheck(pool)], timeoutMs: 1_000, drainDelayMs: 5_000 } });
 */
export interface HealthOptions {
  /** Liveness: 200 while the process serves at all. Default `/health/live`. */
  readonly livePath?: string;
  /** Readiness: 200 when every check passes, else 503; 503 from the moment the app drains. Default `/health/ready`. */
  readonly readyPath?: string;
  /** The readiness checks: objects, or tokens of providers that are checks. */
  readonly checks?: readonly (HealthCheck | InjectionToken<HealthCheck>)[];
  /** How long one check may take before it counts as down, ms. Default 2 000. */
  readonly timeoutMs?: number;
  /**
   * How long `app.drain()` (called by every server adapter's `close`) waits, readiness already
   * answering 503, before the listener stops accepting: the time a balancer needs to notice. Default 0.
   */
  readonly drainDelayMs?: number;
}

// A balancer or a cache in between must never serve an old state.
const HEALTH_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json', 'cache-control': 'no-store' });

function healthAnswer(status: number, body: unknown): PlainAnswer {
  return { status, headers: HEALTH_HEADERS, body: JSON.stringify(body) };
}

/** One check's state in the readiness answer. */
interface CheckState {
  readonly status: 'up' | 'down';
  readonly durationMs: number;
  readonly reason?: 'failed' | 'timed out';
}

/**
 * The health endpoints of an app, as answers: liveness, and readiness running the checks
 * concurrently (each bounded by its timeout) unless the app is draining.
 *
 * @example
 * const health = createHealth(options, checks, logger, () => draining);
 * health.ready().then((answer) => answer.status); // 200 or 503
 */
export function createHealth(options: HealthOptions, checks: readonly HealthCheck[], logger: Logger, draining: () => boolean): { live(): PlainAnswer; ready(): Promise<PlainAnswer> } {
  const timeoutMs = options.timeoutMs ?? 2_000;
  const run = async (check: HealthCheck): Promise<CheckState> => {
    const started = performance.now();
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => {
        controller.abort(new Error(`health check ${check.name} timed out after ${timeoutMs} ms`));
        resolve('timed out');
      }, timeoutMs);
    });
    let reason: CheckState['reason'];
    try {
      if ((await Promise.race([Promise.resolve().then(() => check.check(controller.signal)), timedOut])) === 'timed out') {
        reason = 'timed out';
        logger.warn({ check: check.name, timeoutMs }, 'health check timed out');
      }
    } catch (error) {
      reason = 'failed';
      logger.warn({ check: check.name, err: error }, 'health check failed');
    } finally {
      clearTimeout(timer);
    }
    const durationMs = Math.round((performance.now() - started) * 10) / 10;
    return reason === undefined ? { status: 'up', durationMs } : { status: 'down', durationMs, reason };
  };
  return {
    live: () => healthAnswer(200, { status: 'ok' }),
    async ready() {
      if (draining()) return healthAnswer(503, { status: 'draining', checks: {} });
      const states = await Promise.all(checks.map(run));
      const byName: Record<string, CheckState> = {};
      checks.forEach((check, i) => (byName[check.name] = states[i] as CheckState));
      // Shutdown may have begun while the checks ran.
      if (draining()) return healthAnswer(503, { status: 'draining', checks: byName });
      const down = checks.filter((_, i) => states[i]?.status === 'down');
      if (down.length === 0) return healthAnswer(200, { status: 'ok', checks: byName });
      const critical = down.some((check) => check.critical !== false);
      return healthAnswer(critical ? 503 : 200, { status: critical ? 'error' : 'degraded', checks: byName });
    },
  };
}
