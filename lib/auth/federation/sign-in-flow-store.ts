import type { Awaitable } from '../shared/awaitable.js';

/**
 * What one outside sign-in must remember between the redirect to the provider and the callback:
 * kept on the server, keyed by the SHA-256 of its `state`, never in a cookie. A `form_post`
 * callback is a cross-site POST, on which SameSite=Lax and Strict cookies are not sent, and the
 * callback may reach another instance than the redirect did.
 *
 * @example
 * const flow: SignInFlow = { provider: 'oidc', codeVerifier, nonce, bindingHash, returnTo: '/', linkAccountId: undefined, replacing: undefined, expiresAt };
 */
export interface SignInFlow {
  /** The provider's configured name. */
  readonly provider: string;
  /** The PKCE code verifier (RFC 7636); only its S256 challenge left the server. */
  readonly codeVerifier: string;
  /** The ID token's expected `nonce`; undefined for plain OAuth 2.0 providers. */
  readonly nonce: string | undefined;
  /** SHA-256 (base64url) of the browser-binding cookie the flow was started with. */
  readonly bindingHash: string;
  /** Where the browser goes once signed in: a path of this app. */
  readonly returnTo: string;
  /** Set when a signed-in person links this provider to their account. */
  readonly linkAccountId: string | undefined;
  /**
   * With browser sessions: the SHA-256 of the refresh token of the session the browser held when
   * the flow started (read then, as the callback will not carry the SameSite session cookies),
   * ended once this sign-in starts a session (ASVS 5.0 7.2.4). A hash, never the token.
   */
  readonly replacing: string | undefined;
  readonly expiresAt: Date;
}

/**
 * Where sign-in flows wait for their callback. `take` is the single use: it removes the flow and
 * returns it in one atomic step, so a replayed callback (or two racing ones, on any instances)
 * finds nothing. A flow past `expiresAt` is refused by the caller; stores may purge it.
 *
 * @example
 * await flows.save(stateHash, flow);
 * const flow = await flows.take(stateHash); // undefined the second time
 */
export interface SignInFlowStore {
  save(stateHash: string, flow: SignInFlow): Awaitable<void>;
  take(stateHash: string): Awaitable<SignInFlow | undefined>;
}
