import * as oauth from 'oauth4webapi';
import { decodeProtectedHeader } from 'jose';
import type { Clock } from '../../index.js';
import { atHashMatches } from './at-hash.js';
import { isLoopbackHost, type OidcProviderOptions, type OutsideProfile, type OutsideProviderOptions } from './outside-provider-options.js';

/** Why the provider's answer was refused; for logs only, the client gets one problem per kind. */
export class OutsideSignInRefused extends Error {
  override readonly name = 'OutsideSignInRefused';
}

/** The provider could not be reached in time, or answered with something other than the protocol. */
export class OutsideProviderUnavailable extends Error {
  override readonly name = 'OutsideProviderUnavailable';
}

/** What the redirect to the provider needs. */
export interface AuthorizationRequest {
  readonly state: string;
  readonly codeVerifier: string;
  readonly nonce: string | undefined;
  readonly redirectUri: string;
}

/** How long discovery is kept before it is asked again. */
const DISCOVERY_MAX_AGE_MS = 60 * 60 * 1000;

/**
 * The protocol side of one provider, all of it oauth4webapi's: discovery (cached an hour, never a
 * failure), the authorization URL, the code exchange with PKCE, the ID token's checks (its claims
 * and its signature against the provider's JWKS) and the user info. Every request to the provider is bounded by `timeoutMs`. Times are read from the
 * app's clock (oauth4webapi's `clockSkew` is set to its offset from the system clock), so tests
 * drive expiry without sleeping.
 *
 * @example
 * const client = new OutsideProviderClient(options, { clock, timeoutMs: 5000, clockToleranceSeconds: 0 });
 * const url = await client.authorizationUrl(request);
 */
export class OutsideProviderClient {
  readonly name: string;
  readonly issuer: string;
  readonly linkVerifiedEmail: boolean;
  readonly isOidc: boolean;
  readonly #options: OutsideProviderOptions;
  readonly #clock: Clock;
  readonly #timeoutMs: number;
  readonly #tolerance: number;
  #discovered: { readonly server: oauth.AuthorizationServer; readonly atMs: number } | undefined;

  constructor(options: OutsideProviderOptions, settings: { readonly clock: Clock; readonly timeoutMs: number; readonly clockToleranceSeconds: number }) {
    this.#options = options;
    this.name = options.name;
    this.issuer = options.issuer;
    this.linkVerifiedEmail = options.linkVerifiedEmail === true;
    this.isOidc = options.kind !== 'oauth2';
    this.#clock = settings.clock;
    this.#timeoutMs = settings.timeoutMs;
    this.#tolerance = settings.clockToleranceSeconds;
  }

  /** The URL of the provider's authorization endpoint for this flow (code, S256 PKCE, state, nonce). */
  async authorizationUrl(request: AuthorizationRequest): Promise<URL> {
    const server = await this.#server();
    if (server.authorization_endpoint === undefined) throw new OutsideProviderUnavailable('the provider has no authorization endpoint');
    const url = new URL(server.authorization_endpoint);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('client_id', this.#options.clientId);
    url.searchParams.set('redirect_uri', request.redirectUri);
    const scopes = this.#scopes();
    if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
    url.searchParams.set('state', request.state);
    url.searchParams.set('code_challenge', await oauth.calculatePKCECodeChallenge(request.codeVerifier));
    url.searchParams.set('code_challenge_method', 'S256');
    if (request.nonce !== undefined) url.searchParams.set('nonce', request.nonce);
    const options = this.#options;
    if (options.kind !== 'oauth2') {
      if (options.responseMode === 'form_post') url.searchParams.set('response_mode', 'form_post');
      if (options.maxAge !== undefined) url.searchParams.set('max_age', String(options.maxAge));
      if (options.acrValues !== undefined) url.searchParams.set('acr_values', options.acrValues.join(' '));
    }
    return url;
  }

  /**
   * Checks the callback's parameters against the flow (state, the `iss` parameter where the
   * provider sends it, an `error` answer), redeems the code with the PKCE verifier, validates the
   * token answer and the ID token, and returns the person.
   *
   * @throws OutsideSignInRefused for anything that fails a check; OutsideProviderUnavailable when
   * the provider cannot be reached in time.
   */
  async complete(parameters: URLSearchParams, request: AuthorizationRequest): Promise<OutsideProfile> {
    const server = await this.#server();
    const client = this.#client();
    let callback: URLSearchParams;
    try {
      callback = oauth.validateAuthResponse(server, client, parameters, request.state);
    } catch (error) {
      throw refused('authorization response', error);
    }
    const response = await this.#reach('token endpoint', (signal) =>
      oauth.authorizationCodeGrantRequest(server, client, this.#clientAuth(), callback, request.redirectUri, request.codeVerifier, this.#requestOptions(signal)),
    );
    let tokens: oauth.TokenEndpointResponse;
    try {
      tokens = await oauth.processAuthorizationCodeResponse(server, client, response, {
        expectedNonce: request.nonce ?? oauth.expectNoNonce,
        requireIdToken: this.isOidc,
        // With max_age sent, auth_time must be there and recent enough (OIDC Core 3.1.2.1).
        maxAge: (this.#options as Partial<OidcProviderOptions>).maxAge ?? oauth.skipAuthTimeCheck,
      });
    } catch (error) {
      throw refused('token response', error);
    }
    if (this.#options.kind === 'oauth2') {
      const options = this.#options;
      const fetchImpl = options.fetch ?? fetch;
      return this.#reach('profile', (signal) => options.profile({ accessToken: tokens.access_token, fetch: fetchImpl, signal }));
    }
    const claims = oauth.getValidatedIdTokenClaims(tokens);
    if (claims === undefined || tokens.id_token === undefined) throw new OutsideSignInRefused('token response: no ID token');
    // The ID token's signature, against the provider's published keys (its discovered jwks_uri;
    // oauth4webapi keeps them per provider for up to 5 minutes and fetches again for a key it has
    // not seen). OpenID Connect Core 3.1.3.7 lets a client trust TLS instead for a token taken
    // from the token endpoint; we check both (ASVS 6.8.2): a proxy, a mis-routed fetch or plain
    // http on loopback cannot hand over a token the provider did not sign. HS* (client-secret)
    // signatures are refused: configure the provider for an asymmetric algorithm.
    await this.#reach('ID token signature', (signal) => oauth.validateApplicationLevelSignature(server, response, this.#requestOptions(signal)));
    // at_hash is optional in the code flow (OIDC Core 3.1.3.8); when the provider sends it, the
    // access token must be the one it was made for.
    if (typeof claims.at_hash === 'string' && !(await atHashMatches(tokens.access_token, claims.at_hash, decodeProtectedHeader(tokens.id_token).alg))) {
      throw new OutsideSignInRefused('ID token: at_hash does not match the access token');
    }
    const acr = typeof claims.acr === 'string' ? claims.acr : undefined;
    // acr_values is a voluntary request: a provider may answer a lower level; requireAcr refuses it.
    const level = this.#options as OidcProviderOptions;
    if (level.requireAcr === true && !(acr !== undefined && (level.acrValues ?? []).includes(acr))) {
      throw new OutsideSignInRefused(`ID token: acr ${acr === undefined ? 'missing' : JSON.stringify(acr)} is not one of the required acrValues`);
    }
    const info = server.userinfo_endpoint === undefined ? {} : await this.#userInfo(server, client, tokens.access_token, claims.sub);
    const all: Record<string, unknown> = { ...info, ...claims };
    const email = typeof all.email === 'string' ? all.email : undefined;
    return Object.freeze({
      subject: claims.sub,
      email,
      // Only `true` itself counts: "true" as a string, a missing claim or anything else is unverified.
      emailVerified: email !== undefined && all.email_verified === true,
      name: typeof all.name === 'string' ? all.name : undefined,
      acr,
      claims: Object.freeze(all),
    });
  }

  /** True when discovery answers now (for a readiness check). */
  async reachable(): Promise<boolean> {
    try {
      await this.#server();
      return true;
    } catch {
      return false;
    }
  }

  async #userInfo(server: oauth.AuthorizationServer, client: oauth.Client, accessToken: string, subject: string): Promise<Record<string, unknown>> {
    const response = await this.#reach('userinfo endpoint', (signal) => oauth.userInfoRequest(server, client, accessToken, this.#requestOptions(signal)));
    try {
      // The subject check: user info about anyone but the ID token's subject is refused.
      return { ...(await oauth.processUserInfoResponse(server, client, subject, response)) };
    } catch (error) {
      throw refused('user info', error);
    }
  }

  #scopes(): readonly string[] {
    const given = this.#options.scopes;
    if (this.#options.kind === 'oauth2') return given ?? [];
    const scopes = given ?? ['openid', 'email', 'profile'];
    return scopes.includes('openid') ? scopes : ['openid', ...scopes];
  }

  async #server(): Promise<oauth.AuthorizationServer> {
    const options = this.#options;
    if (options.kind === 'oauth2') {
      return { issuer: options.issuer, authorization_endpoint: options.authorizationEndpoint, token_endpoint: options.tokenEndpoint };
    }
    const now = this.#clock.now();
    if (this.#discovered !== undefined && now - this.#discovered.atMs < DISCOVERY_MAX_AGE_MS) return this.#discovered.server;
    const issuer = new URL(options.issuer);
    const response = await this.#reach('discovery', (signal) => oauth.discoveryRequest(issuer, { algorithm: 'oidc', ...this.#requestOptions(signal) }));
    let server: oauth.AuthorizationServer;
    try {
      // Refuses a document whose `issuer` is not exactly the configured one.
      server = await oauth.processDiscoveryResponse(issuer, response);
    } catch (error) {
      throw new OutsideProviderUnavailable(`discovery: ${messageOf(error)}`);
    }
    this.#discovered = { server, atMs: now };
    return server;
  }

  #client(): oauth.Client {
    return {
      client_id: this.#options.clientId,
      // The app's clock is the truth: oauth4webapi adds this offset to the system clock.
      [oauth.clockSkew]: Math.round((this.#clock.now() - Date.now()) / 1000),
      [oauth.clockTolerance]: this.#tolerance,
    };
  }

  #clientAuth(): oauth.ClientAuth {
    const secret = this.#options.clientSecret;
    if (secret === undefined) return oauth.None();
    return this.#options.clientAuthentication === 'client_secret_post' ? oauth.ClientSecretPost(secret) : oauth.ClientSecretBasic(secret);
  }

  #requestOptions(signal: AbortSignal): { signal: AbortSignal; [oauth.customFetch]?: typeof fetch; [oauth.allowInsecureRequests]?: boolean } {
    const options: { signal: AbortSignal; [oauth.customFetch]?: typeof fetch; [oauth.allowInsecureRequests]?: boolean } = { signal };
    if (this.#options.fetch !== undefined) options[oauth.customFetch] = this.#options.fetch;
    // Plain http only to a provider on this machine (checked at forRoot for the configured URLs).
    if (isLoopbackHost(new URL(this.#options.issuer).hostname)) options[oauth.allowInsecureRequests] = true;
    return options;
  }

  /** One request to the provider, bounded in time; a network failure or timeout is "unavailable". */
  async #reach<T>(what: string, request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const signal = AbortSignal.timeout(this.#timeoutMs);
    try {
      return await request(signal);
    } catch (error) {
      if (error instanceof OutsideSignInRefused) throw error;
      if (signal.aborted || error instanceof TypeError) throw new OutsideProviderUnavailable(`${what}: ${signal.aborted ? `no answer within ${this.#timeoutMs} ms` : messageOf(error)}`);
      throw refused(what, error);
    }
  }
}

function refused(what: string, error: unknown): OutsideSignInRefused {
  return new OutsideSignInRefused(`${what}: ${messageOf(error)}`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
