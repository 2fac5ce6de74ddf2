import type { SignInFlow, SignInFlowStore } from '../federation/sign-in-flow-store.js';
import { createQueryRunner } from '../../postgres/index.js';
import type { PostgresStoreOptions, QueryRunner, SqlClient } from '../../postgres/index.js';
import { readJson, readTimestamp, requireValidDate, toTimestampParam } from './row-values.js';

/** The flow as stored in the `flow` column (dates as ISO strings). */
interface StoredFlow {
  readonly provider: string;
  readonly codeVerifier: string;
  readonly nonce: string | null;
  readonly bindingHash: string;
  readonly returnTo: string;
  readonly linkAccountId: string | null;
  /** Absent from rows written before it existed. */
  readonly replacing?: string | null;
}

/**
 * A {@link SignInFlowStore} on the `tessera_sign_in_flows` table (see `migrate`, version 6), shared
 * by every instance, so a callback finds its flow whichever instance answers it. `take` is one
 * `DELETE ... RETURNING`: of two callbacks with one state (a replay, a double submit), on any
 * instances, exactly one gets the flow. The state itself is never stored, only its SHA-256.
 * `purgeExpired` removes flows whose callback never came (run it now and then).
 *
 * Database failures throw a `StoreUnavailableError` (503).
 *
 * @example
 * outsideSignIn: { flowStore: defineProvider(PostgresSignInFlowStore, [SQL_CLIENT]), imports: [DatabaseModule], ... }
 */
export class PostgresSignInFlowStore implements SignInFlowStore {
  readonly #run: QueryRunner;

  constructor(client: SqlClient, options: PostgresStoreOptions = {}) {
    this.#run = createQueryRunner(client, 'sign-in-flow', options, () => new Error('A sign-in flow with this state already exists'));
  }

  async save(stateHash: string, flow: SignInFlow): Promise<void> {
    const stored: StoredFlow = {
      provider: flow.provider,
      codeVerifier: flow.codeVerifier,
      nonce: flow.nonce ?? null,
      bindingHash: flow.bindingHash,
      returnTo: flow.returnTo,
      linkAccountId: flow.linkAccountId ?? null,
      replacing: flow.replacing ?? null,
    };
    await this.#run('save', 'INSERT INTO tessera_sign_in_flows (state_hash, flow, expires_at) VALUES ($1, $2::jsonb, $3)', [stateHash, JSON.stringify(stored), toTimestampParam(requireValidDate(flow.expiresAt, 'expiresAt'))], 'write');
  }

  async take(stateHash: string): Promise<SignInFlow | undefined> {
    const rows = await this.#run<{ flow: unknown; expires_at: unknown }>('take', 'DELETE FROM tessera_sign_in_flows WHERE state_hash = $1 RETURNING flow, expires_at', [stateHash], 'write');
    const row = rows[0];
    if (row === undefined) return undefined;
    const flow = readJson(row.flow) as StoredFlow;
    const expiresAt = readTimestamp(row.expires_at);
    // A row this code did not write is no flow: refused, never guessed at.
    if (expiresAt === null || typeof flow?.codeVerifier !== 'string' || typeof flow.bindingHash !== 'string') return undefined;
    return { provider: flow.provider, codeVerifier: flow.codeVerifier, nonce: flow.nonce ?? undefined, bindingHash: flow.bindingHash, returnTo: flow.returnTo, linkAccountId: flow.linkAccountId ?? undefined, replacing: typeof flow.replacing === 'string' ? flow.replacing : undefined, expiresAt };
  }

  /** Deletes the flows that expired before `now`; answers how many. */
  async purgeExpired(now: Date): Promise<number> {
    const rows = await this.#run('purgeExpired', 'DELETE FROM tessera_sign_in_flows WHERE expires_at < $1 RETURNING 1 AS purged', [toTimestampParam(requireValidDate(now, 'now'))], 'write');
    return rows.length;
  }
}
