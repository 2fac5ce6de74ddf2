import { createStateKey, type RequestContext } from '../../index.js';

/**
 * Who authenticated a request, with where the credential came from. A subject means nothing
 * without its issuer: `sub: "bob"` in a token of an outside identity provider names the
 * provider's bob, not the local account `bob` (ASVS 6.8.1). So the guards record, beside the
 * claims, which kind of credential was accepted:
 *
 * - `session`: an access token this app issued (a local account's session, by header or cookie);
 * - `outside`: a token of one of `trustedIssuers`, with that issuer;
 * - `apiKey`: a machine key.
 *
 * Only a `session` acts as a local account: {@link getAccountId} answers its subject and nothing
 * for the others. A provider identity reaches a local account only through an explicit link (an
 * `IdentityStore` entry made by the outside sign-in), which ends in a session of the app's own.
 *
 * @example
 * const principal = getPrincipal(ctx);
 * if (principal?.kind === 'outside') ctx.log.info({ issuer: principal.issuer }, 'provider token');
 */
export type Principal =
  | { readonly kind: 'session'; readonly issuer: string | undefined; readonly subject: string | undefined; readonly sessionId: string | undefined }
  | { readonly kind: 'outside'; readonly issuer: string; readonly subject: string | undefined }
  | { readonly kind: 'apiKey'; readonly keyId: string };

/** Where the guards put the principal; one key for every auth module (a request meets one). */
export const PRINCIPAL = createStateKey<Principal>('auth:principal');

/**
 * The principal of the request: set by `JwtAuthGuard`, `AuthGuard` and `AccountGuard`; undefined
 * outside a request or before a guard ran.
 *
 * @example
 * get('/whoami', (ctx) => ({ kind: getPrincipal(ctx)?.kind }));
 */
export function getPrincipal(ctx: Pick<RequestContext, 'get'> | undefined): Principal | undefined {
  return ctx?.get(PRINCIPAL);
}

/**
 * The local account the request acts as: the subject of the app's own session token, and
 * undefined for an outside provider's token, an API key or no credential. Routes that reach a
 * person's account (sessions, password, e-mail, linked identities) read the account from here,
 * never from the claims' `sub`, which an outside issuer chooses.
 *
 * @example
 * del('/auth/sessions', { guards: [AccountGuard] }, async (ctx) => auth.revokeAllSessions(getAccountId(ctx)!));
 */
export function getAccountId(ctx: Pick<RequestContext, 'get'> | undefined): string | undefined {
  const principal = ctx?.get(PRINCIPAL);
  return principal?.kind === 'session' ? principal.subject : undefined;
}

/**
 * The principal of a verified bearer token's payload. The rule is the bearer verifier's routing:
 * a string `iss` naming a trusted issuer was verified with that issuer's keys; every other token
 * passed the app's own secret.
 */
export function principalOfPayload(payload: Readonly<Record<string, unknown>>, outsideIssuers: ReadonlySet<string>): Principal {
  const iss = payload.iss;
  const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
  if (isOutsideToken(payload, outsideIssuers)) return Object.freeze({ kind: 'outside', issuer: iss as string, subject: sub });
  return Object.freeze({ kind: 'session', issuer: typeof iss === 'string' ? iss : undefined, subject: sub, sessionId: typeof payload.sid === 'string' ? payload.sid : undefined });
}

/**
 * The one "own token" rule, the bearer verifier's routing: a verified payload whose string `iss`
 * names a trusted outside issuer was checked with that issuer's keys (an outside token); any
 * other passed the app's own secret. The principal, the recent-auth facts and revocation all
 * read it.
 *
 * @example
 * if (!isOutsideToken(payload, outsideIssuers)) revocations.isRevoked(payload);
 */
export function isOutsideToken(payload: Readonly<Record<string, unknown>>, outsideIssuers: ReadonlySet<string>): boolean {
  return typeof payload.iss === 'string' && outsideIssuers.has(payload.iss);
}
