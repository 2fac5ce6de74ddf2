import { AuthConfigError } from '../shared/auth-config-error.js';

/**
 * What the app learns of a person from a provider, after every check passed: the identity's key
 * (`issuer` as configured, `subject`) and what the linking rules may use.
 *
 * @example
 * const profile: OutsideProfile = { subject: '583231', email: 'octocat@github.com', emailVerified: true, name: 'The Octocat', claims: {} };
 */
export interface OutsideProfile {
  /** The provider's stable identifier of the person (`sub`; GitHub's numeric `id`, as a string). Never the e-mail. */
  readonly subject: string;
  readonly email?: string | undefined;
  /** True only when the provider vouches the person controls `email`; anything unsure is false. */
  readonly emailVerified: boolean;
  readonly name?: string | undefined;
  /**
   * The authentication context class the provider says it used (the ID token's `acr`), when it
   * says; see `acrValues` and `requireAcr` to ask for one. OIDC providers only.
   */
  readonly acr?: string | undefined;
  /** The validated ID-token claims and the user-info claims (OIDC), or what `profile` returned. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * An OpenID Connect provider (Google, Microsoft Entra, Okta, Keycloak, Auth0, ...), found by
 * discovery at `<issuer>/.well-known/openid-configuration`. The flow is the authorization code
 * grant with PKCE (S256), `state` and `nonce`; the ID token is checked (`iss`, `aud`, `azp`, `exp`,
 * `iat`, `nonce`, and `at_hash` when present) by oauth4webapi.
 *
 * @example
 * const keycloak: OidcProviderOptions = { name: 'oidc', issuer: 'https://id.acme.test/realms/acme', clientId: 'tenants', clientSecret: process.env.OIDC_CLIENT_SECRET };
 */
export interface OidcProviderOptions {
  readonly kind?: 'oidc';
  /** The provider's name in the routes (`/auth/oidc/<name>`): lower-case letters, digits and dashes. */
  readonly name: string;
  /** The issuer identifier; discovery must answer exactly this `issuer`. https, or http on loopback. */
  readonly issuer: string;
  readonly clientId: string;
  /** Omit for a public client (PKCE only). */
  readonly clientSecret?: string | undefined;
  /** How the secret is sent: `client_secret_basic` (default) or `client_secret_post`. */
  readonly clientAuthentication?: 'client_secret_basic' | 'client_secret_post';
  /** Default `['openid', 'email', 'profile']`; `openid` is added when missing. */
  readonly scopes?: readonly string[];
  /** `form_post` (the code comes back in a cross-site POST) or `query` (default). */
  readonly responseMode?: 'query' | 'form_post';
  /**
   * When true, a person this provider signs in with a verified e-mail address is linked to the
   * local account with that (verified) address on first sign-in. Only for providers that own the
   * addresses they vouch for: anyone can make an account elsewhere with your address. Default false;
   * an unverified e-mail never links.
   */
  readonly linkVerifiedEmail?: boolean;
  /**
   * Asks the provider for a fresh authentication (whole seconds, 0 or more): sends `max_age`, and
   * the ID token must then carry an `auth_time` no older than this (on the app's clock, within
   * `clockToleranceSeconds`), else the sign-in is refused (401). Unset: no `max_age`.
   */
  readonly maxAge?: number;
  /**
   * Asks the provider for an authentication level: sends `acr_values` (space-separated, preferred
   * first), e.g. a provider's multi-factor class. The provider may answer another level: the ID
   * token's `acr` is on the profile (`OutsideProfile.acr`), and `requireAcr` refuses any other.
   */
  readonly acrValues?: readonly string[];
  /** With `acrValues`: the ID token's `acr` must be one of them, else the sign-in is refused (401). Default false. */
  readonly requireAcr?: boolean;
  /** The fetch used to reach the provider; default the global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * A plain OAuth 2.0 provider without OpenID Connect (GitHub style): endpoints given, no ID token;
 * `profile` turns the access token into the person's {@link OutsideProfile} (for GitHub, the
 * `/user` and `/user/emails` APIs). `issuer` is the namespace of its subjects (`https://github.com`).
 *
 * @example
 * const github: OAuthProviderOptions = {
 *   kind: 'oauth2', name: 'github', issuer: 'https://github.com', clientId, clientSecret,
 *   authorizationEndpoint: 'https://github.com/login/oauth/authorize', tokenEndpoint: 'https://github.com/login/oauth/access_token',
 *   scopes: ['read:user', 'user:email'], profile: githubProfile,
 * };
 */
export interface OAuthProviderOptions {
  readonly kind: 'oauth2';
  readonly name: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string | undefined;
  readonly clientAuthentication?: 'client_secret_basic' | 'client_secret_post';
  readonly authorizationEndpoint: string;
  readonly tokenEndpoint: string;
  readonly scopes?: readonly string[];
  /** The person behind the access token; throw when it cannot be told. */
  readonly profile: (input: { readonly accessToken: string; readonly fetch: typeof fetch; readonly signal: AbortSignal }) => Promise<OutsideProfile>;
  readonly linkVerifiedEmail?: boolean;
  readonly fetch?: typeof fetch;
}

/**
 * One provider of the outside sign-in.
 *
 * @example
 * const providers: readonly OutsideProviderOptions[] = [keycloak, github];
 */
export type OutsideProviderOptions = OidcProviderOptions | OAuthProviderOptions;

const NAME = /^[a-z0-9][a-z0-9-]{0,31}$/;

/**
 * Checks the providers at `forRoot`: names unique and fit for a path, issuers unique (an identity
 * is keyed by issuer, so two providers on one issuer would share identities), URLs https (http
 * only on loopback), and the client id given.
 *
 * @example
 * checkOutsideProviders(options.outsideSignIn.providers);
 */
export function checkOutsideProviders(providers: readonly OutsideProviderOptions[]): void {
  if (!Array.isArray(providers) || providers.length === 0) throw new AuthConfigError('outsideSignIn.providers must list at least one provider');
  const names = new Set<string>();
  const issuers = new Set<string>();
  for (const provider of providers) {
    if (typeof provider.name !== 'string' || !NAME.test(provider.name)) throw new AuthConfigError('An outside provider needs a name of lower-case letters, digits and dashes');
    const name = JSON.stringify(provider.name);
    if (names.has(provider.name)) throw new AuthConfigError(`Outside provider ${name} is listed twice`);
    names.add(provider.name);
    if (typeof provider.clientId !== 'string' || provider.clientId === '') throw new AuthConfigError(`Outside provider ${name} needs a clientId`);
    checkUrl(provider.issuer, `Outside provider ${name}: issuer`);
    if (issuers.has(provider.issuer)) throw new AuthConfigError(`Outside providers share the issuer ${JSON.stringify(provider.issuer)}`);
    issuers.add(provider.issuer);
    if (provider.kind !== 'oauth2') checkLevel(provider, name);
    if (provider.kind === 'oauth2') {
      checkUrl(provider.authorizationEndpoint, `Outside provider ${name}: authorizationEndpoint`);
      checkUrl(provider.tokenEndpoint, `Outside provider ${name}: tokenEndpoint`);
      if (typeof provider.profile !== 'function') throw new AuthConfigError(`Outside provider ${name} (oauth2) needs a profile function`);
    }
  }
}

/** `maxAge`, `acrValues` and `requireAcr` of an OIDC provider: what the request can carry, and a requirement that can be met. */
function checkLevel(provider: OidcProviderOptions, name: string): void {
  const { maxAge, acrValues, requireAcr } = provider;
  if (maxAge !== undefined && !(Number.isSafeInteger(maxAge) && maxAge >= 0)) throw new AuthConfigError(`Outside provider ${name}: maxAge must be a whole number of seconds, 0 or more`);
  if (acrValues !== undefined) {
    if (!Array.isArray(acrValues) || acrValues.length === 0) throw new AuthConfigError(`Outside provider ${name}: acrValues must list at least one value`);
    for (const value of acrValues) {
      if (typeof value !== 'string' || !/^[\x21-\x7e]+$/.test(value)) throw new AuthConfigError(`Outside provider ${name}: each acrValues entry is a non-empty string of visible ASCII without spaces`);
    }
  }
  if (requireAcr === true && acrValues === undefined) throw new AuthConfigError(`Outside provider ${name}: requireAcr needs acrValues (the levels to require)`);
}

function checkUrl(value: unknown, what: string): void {
  let url: URL;
  try {
    url = new URL(value as string);
  } catch {
    throw new AuthConfigError(`${what} is not a URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) throw new AuthConfigError(`${what} must be https (http only on a loopback host)`);
}

/**
 * True for `localhost`, `127.x.y.z` and `[::1]`: the hosts plain http is allowed to (tests, a
 * provider running beside the app in development).
 *
 * @example
 * isLoopbackHost(new URL(issuer).hostname);
 */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
