/**
 * One schema change. `statements` run in order inside one transaction, together with the row
 * that records the version, so a migration is applied entirely or not at all.
 *
 * @example
 * const next: Migration = { version: 2, name: 'api key labels', statements: ['ALTER TABLE tessera_api_keys ADD COLUMN label text'] };
 */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

/**
 * The schema of the PostgreSQL stores, oldest first. Never edit an applied migration: append.
 *
 * Tables (all prefixed `tessera_` so they can share a database with the application's own):
 * - `tessera_accounts`: sign-in accounts; `identifier` stored trimmed and lower-cased, unique (the
 *   e-mail address for accounts from sign-up); `email_verified` false only for a sign-up not yet verified.
 * - `tessera_account_tokens`: mailed single-use tokens (verification, reset, e-mail change), keyed by
 *   their SHA-256; never the token.
 * - `tessera_refresh_tokens`: keyed by the SHA-256 hash of each token; never the token.
 * - `tessera_api_keys`: keyed by the public key id; the SHA-256 of the secret, never the secret.
 * - `tessera_rate_limits`: one fixed-window counter per (limiter name, key).
 * - `tessera_sign_in_flows`: outside sign-ins waiting for their callback, keyed by the SHA-256 of
 *   their `state`; taken (deleted) by the callback, purgeable after `expires_at`.
 * - `tessera_identities`: provider identities linked to accounts, keyed by (issuer, subject).
 * - `tessera_idempotency`: one claim or stored answer per idempotency id (route, caller and key,
 *   hashed); `expires_at_ms` ends a claim's lock or an answer's TTL, after which the row is purgeable.
 * - `tessera_totp`, `tessera_recovery_codes`, `tessera_passkeys`: a person's second factors (the
 *   TOTP secret sealed with AES-GCM, recovery codes as keyed digests, passkeys' public keys);
 *   `tessera_factor_challenges` and `tessera_pending_sign_ins`: single-use WebAuthn challenges and
 *   sign-ins awaiting their factor, by SHA-256; `tessera_session_factors`: when a session last
 *   passed a second factor (step-up).
 *
 * @example
 * MIGRATIONS.at(-1)?.version; // the latest schema version
 */
export const MIGRATIONS: readonly Migration[] = Object.freeze([
  {
    version: 1,
    name: 'auth stores',
    statements: [
      `CREATE TABLE IF NOT EXISTS tessera_accounts (
         subject text PRIMARY KEY,
         identifier text NOT NULL UNIQUE,
         password_hash text NOT NULL,
         claims jsonb NOT NULL,
         disabled boolean NOT NULL DEFAULT false,
         created_at timestamptz NOT NULL DEFAULT now()
       )`,
      `CREATE TABLE IF NOT EXISTS tessera_refresh_tokens (
         token_hash text PRIMARY KEY,
         subject text NOT NULL,
         family_id text,
         expires_at timestamptz NOT NULL,
         rotated_at timestamptz,
         revoked_at timestamptz
       )`,
      // Partial indexes: revocation only ever looks for tokens not yet revoked.
      `CREATE INDEX IF NOT EXISTS tessera_refresh_tokens_subject_idx ON tessera_refresh_tokens (subject) WHERE revoked_at IS NULL`,
      `CREATE INDEX IF NOT EXISTS tessera_refresh_tokens_family_idx ON tessera_refresh_tokens (family_id) WHERE revoked_at IS NULL`,
      `CREATE INDEX IF NOT EXISTS tessera_refresh_tokens_expires_idx ON tessera_refresh_tokens (expires_at)`,
      `CREATE TABLE IF NOT EXISTS tessera_api_keys (
         id text PRIMARY KEY,
         secret_hash text NOT NULL,
         claims jsonb NOT NULL,
         scopes jsonb NOT NULL DEFAULT '[]'::jsonb,
         expires_at timestamptz,
         revoked_at timestamptz,
         allowed_cidrs jsonb,
         owner text,
         name text,
         created_at timestamptz NOT NULL,
         last_used_at timestamptz
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_api_keys_owner_idx ON tessera_api_keys (owner)`,
      `CREATE TABLE IF NOT EXISTS tessera_rate_limits (
         name text NOT NULL,
         key text NOT NULL,
         window_start_ms bigint NOT NULL,
         hits integer NOT NULL,
         PRIMARY KEY (name, key)
       )`,
    ],
  },
  {
    version: 2,
    name: 'revoked refresh-token index',
    // An instance reads the sessions ended within one access-token lifetime at boot
    // (revokedFamiliesSince): a range over revoked_at, which no index served.
    statements: [`CREATE INDEX IF NOT EXISTS tessera_refresh_tokens_revoked_idx ON tessera_refresh_tokens (revoked_at) WHERE revoked_at IS NOT NULL`],
  },
  {
    version: 3,
    name: 'idempotency keys',
    // answer NULL: a claim still running. The index serves purgeExpired.
    statements: [
      `CREATE TABLE IF NOT EXISTS tessera_idempotency (
         id text PRIMARY KEY,
         fingerprint text NOT NULL,
         token text NOT NULL,
         answer text,
         expires_at_ms bigint NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_idempotency_expires_idx ON tessera_idempotency (expires_at_ms)`,
    ],
  },
  {
    version: 4,
    name: 'accounts for people',
    // Accounts inserted before (or outside) sign-up are verified: only sign-up writes false.
    // The subject index serves the supersede and delete of a purpose's tokens, the expiry index purgeExpiredTokens.
    statements: [
      `ALTER TABLE tessera_accounts ADD COLUMN IF NOT EXISTS email_verified boolean NOT NULL DEFAULT true`,
      `CREATE TABLE IF NOT EXISTS tessera_account_tokens (
         token_hash text PRIMARY KEY,
         subject text NOT NULL,
         purpose text NOT NULL,
         email text NOT NULL,
         expires_at timestamptz NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_account_tokens_subject_idx ON tessera_account_tokens (subject, purpose)`,
      `CREATE INDEX IF NOT EXISTS tessera_account_tokens_expires_idx ON tessera_account_tokens (expires_at)`,
    ],
  },
  {
    version: 5,
    name: 'refresh-token session metadata',
    // Sessions per device: each token keeps when it was issued (the current token's is the
    // session's last use) and its session's start, user agent and client address, copied on
    // rotation. Nullable: tokens issued before this migration list with what their id tells.
    statements: [
      `ALTER TABLE tessera_refresh_tokens ADD COLUMN IF NOT EXISTS issued_at timestamptz`,
      `ALTER TABLE tessera_refresh_tokens ADD COLUMN IF NOT EXISTS session_started_at timestamptz`,
      `ALTER TABLE tessera_refresh_tokens ADD COLUMN IF NOT EXISTS user_agent text`,
      `ALTER TABLE tessera_refresh_tokens ADD COLUMN IF NOT EXISTS client_address text`,
    ],
  },
  {
    version: 6,
    name: 'second factors',
    // Every "use" is an UPDATE or DELETE whose WHERE still holds only for an unused row, so one
    // request wins. Expiry indexes serve purgeExpired.
    statements: [
      `CREATE TABLE IF NOT EXISTS tessera_totp (
         subject text PRIMARY KEY,
         sealed_secret text NOT NULL,
         confirmed_at timestamptz,
         last_step bigint
       )`,
      `CREATE TABLE IF NOT EXISTS tessera_recovery_codes (
         subject text NOT NULL,
         digest text NOT NULL,
         used_at timestamptz,
         PRIMARY KEY (subject, digest)
       )`,
      `CREATE TABLE IF NOT EXISTS tessera_passkeys (
         id text PRIMARY KEY,
         subject text NOT NULL,
         public_key text NOT NULL,
         counter bigint NOT NULL DEFAULT 0,
         transports jsonb NOT NULL DEFAULT '[]'::jsonb,
         created_at timestamptz NOT NULL,
         last_used_at timestamptz
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_passkeys_subject_idx ON tessera_passkeys (subject)`,
      `CREATE TABLE IF NOT EXISTS tessera_factor_challenges (
         challenge_hash text PRIMARY KEY,
         purpose text NOT NULL,
         subject text,
         expires_at timestamptz NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_factor_challenges_expires_idx ON tessera_factor_challenges (expires_at)`,
      `CREATE TABLE IF NOT EXISTS tessera_pending_sign_ins (
         token_hash text PRIMARY KEY,
         subject text NOT NULL,
         expires_at timestamptz NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_pending_sign_ins_expires_idx ON tessera_pending_sign_ins (expires_at)`,
      `CREATE TABLE IF NOT EXISTS tessera_session_factors (
         session_id text PRIMARY KEY,
         subject text NOT NULL,
         verified_at timestamptz NOT NULL
       )`,
    ],
  },
  {
    version: 7,
    name: 'outside sign-in',
    // Flows hold a PKCE verifier and a nonce until their callback takes them (one DELETE ...
    // RETURNING, so a replay on any instance finds nothing). Identities are keyed by issuer and
    // subject together (ASVS 6.8.1); the account index serves listing and the last-way check.
    statements: [
      `CREATE TABLE IF NOT EXISTS tessera_sign_in_flows (
         state_hash text PRIMARY KEY,
         flow jsonb NOT NULL,
         expires_at timestamptz NOT NULL
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_sign_in_flows_expires_idx ON tessera_sign_in_flows (expires_at)`,
      `CREATE TABLE IF NOT EXISTS tessera_identities (
         issuer text NOT NULL,
         subject text NOT NULL,
         account_id text NOT NULL,
         provider text NOT NULL,
         email text,
         linked_at timestamptz NOT NULL,
         PRIMARY KEY (issuer, subject)
       )`,
      `CREATE INDEX IF NOT EXISTS tessera_identities_account_idx ON tessera_identities (account_id)`,
    ],
  },
]);
