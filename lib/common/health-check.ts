/**
 * One readiness check: resolves when what it checks can serve (a database answers `select 1`,
 * an identity provider's keys can be fetched), throws or rejects when not. It receives a signal
 * aborted at the check's timeout. Its error is logged, never shown: the endpoint is public.
 *
 * @example
 * const database: HealthCheck = { name: 'database', check: async () => void (await pool.query('select 1')) };
 */
export interface HealthCheck {
  readonly name: string;
  check(signal: AbortSignal): void | Promise<void>;
  /**
   * Whether this check being down makes the instance not ready (503). Default true. A check of an
   * engine every instance shares (the database, Redis, the bus) says false by default: its outage
   * is the same on every instance, and a 503 from all of them would take the whole service out
   * of its load balancer at once, although most routes still answer (and the others answer a
   * clear 503 of their own). Down but not critical, the readiness answer stays 200 with status
   * `degraded` and the check's state in the body.
   */
  readonly critical?: boolean;
}

/**
 * Options of the readiness checks for shared engines (`pubSubHealthCheck`, `redisHealthCheck`,
 * `postgresHealthCheck`).
 *
 * @example
 * postgresHealthCheck(pool, { critical: true }); // this instance is useless without its database
 */
export interface SharedEngineCheckOptions {
  /** The check's name in the readiness answer. */
  readonly name?: string;
  /** Default false: see {@link HealthCheck.critical}. */
  readonly critical?: boolean;
}
