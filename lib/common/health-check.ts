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
}
