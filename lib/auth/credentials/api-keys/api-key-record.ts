/**
 * A stored API key (SPEC "ApiKeyRecord"). Holds the SHA-256 of the secret, never the secret.
 *
 * - `expiresAt`, `revokedAt`: the key is refused from that exact moment (`<= now`).
 * - `allowedCidrs`: empty, null or missing means any address; entries must be canonical networks
 *   as written by `parseAllowedCidrs` at creation time.
 * - `claims`: validated by the claims schema on every use, like a token payload.
 *
 * @example
 * const record: ApiKeyRecord = {
 *   id: generated.id,
 *   secretHash: generated.secretHash,
 *   claims: { sub: 'svc-billing', roles: [], tenantId: 'acme' },
 *   scopes: ['posts:read'],
 *   expiresAt: null,
 *   allowedCidrs: ['10.0.0.0/8'],
 * };
 */
export interface ApiKeyRecord {
  readonly id: string;
  readonly secretHash: string;
  readonly claims: unknown;
  readonly scopes?: readonly string[];
  readonly expiresAt?: Date | null;
  readonly revokedAt?: Date | null;
  readonly allowedCidrs?: readonly string[] | null;
}
