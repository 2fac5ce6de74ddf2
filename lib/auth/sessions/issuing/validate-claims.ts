import type { z } from 'zod';

/**
 * The application's claims schema (the one given to `defineAuthModule`): any Zod schema whose
 * output is `Claims`. Written as the one method the service calls rather than as `ZodType<Claims>`,
 * because TypeScript cannot see that a generic `S extends ZodType` is a `ZodType<z.output<S>>`,
 * while it can match this method.
 *
 * @example
 * const schema: ClaimsSchema<{ sub: string; roles: string[] }> = z.object({ sub: z.string(), roles: z.array(z.string()) });
 */
export interface ClaimsSchema<Claims> {
  safeParseAsync(data: unknown): Promise<z.ZodSafeParseResult<Claims>>;
}

/**
 * Validates claims returned by `CredentialStore.loadClaims` before they are signed into a token.
 * A failure is a server fault (bad stored data or a schema mismatch), not the caller's: it is a
 * plain `Error`, which becomes a 500, never a 401 that would hide the fault as a bad password.
 *
 * The message names the issue codes only. Neither values nor paths are included: values are
 * account data, and paths can be data too (keys of a record-typed claim).
 *
 * @example
 * const claims = await validateLoadedClaims(Claims, await store.loadClaims(subject));
 */
export async function validateLoadedClaims<Claims>(
  schema: ClaimsSchema<Claims>,
  loaded: unknown,
): Promise<Claims & Record<string, unknown>> {
  const result = await schema.safeParseAsync(loaded);
  if (!result.success) {
    const codes = [...new Set(result.error.issues.map((issue) => issue.code))].join(', ');
    throw new Error(
      `Claims returned by CredentialStore.loadClaims do not satisfy the claims schema ` +
        `(${result.error.issues.length} issue(s): ${codes}); this is a server fault, fix the stored claims or the schema`,
    );
  }
  const claims: unknown = result.data;
  // Claims become a JWT payload, which must be a JSON object.
  if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) {
    throw new Error('The claims schema must produce an object (claims become a token payload)');
  }
  return claims as Claims & Record<string, unknown>;
}
