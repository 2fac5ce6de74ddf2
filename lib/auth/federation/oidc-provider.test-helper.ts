/**
 * A real OpenID provider for the outside sign-in tests: oidc-provider (OpenID Certified) on
 * loopback, with a test-driven login (the next person to sign in is chosen by the test) and
 * automatic consent, and a browser stand-in that follows its redirects with a cookie jar.
 * Not exported from the package.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, decodeJwt, decodeProtectedHeader, type CryptoKey as JoseKey } from 'jose';
import Provider from 'oidc-provider';

/** The authentication classes the test provider knows (a password, and one with a second factor). */
export const TEST_ACR_VALUES = ['urn:tessera:test:password', 'urn:tessera:test:mfa'] as const;

/** A person the provider knows. */
export interface ProviderAccount {
  readonly sub: string;
  readonly email?: string;
  readonly email_verified?: boolean;
  readonly name?: string;
}

/** What a test holds of the running provider. */
export interface TestOidcProvider {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The person the next login signs in as, and the authentication class (`acr`) the login reports, if any. */
  loginAs(sub: string, options?: { readonly acr?: string }): void;
  /** Re-signs an ID token with the provider's own key after changing its claims (a token answer another client or issuer would get). */
  resign(idToken: string, change: (claims: Record<string, unknown>) => Record<string, unknown>): Promise<string>;
  /** Re-signs an ID token, claims and header (`kid` included) unchanged, with a key the provider never published: a forgery. */
  forge(idToken: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Starts the provider with one confidential client whose redirect URIs are `redirectUris`.
 *
 * @example
 * const op = await startOidcProvider({ redirectUris: ['http://app.test/auth/oidc/oidc/callback'], accounts: [{ sub: 'op-bob', email: 'bob@acme.test', email_verified: true }] });
 */
export async function startOidcProvider(options: { readonly redirectUris: readonly string[]; readonly accounts: readonly ProviderAccount[] }): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), kid: 'op-key-1', alg: 'RS256', use: 'sig' };
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  let nextLogin = options.accounts[0]?.sub ?? 'nobody';
  let nextAcr: string | undefined;
  const clientId = 'tessera-app';
  const clientSecret = 'a-client-secret-for-the-tests-0123456789';
  const provider = new Provider(issuer, {
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: [...options.redirectUris], response_types: ['code'], grant_types: ['authorization_code'] }],
    jwks: { keys: [jwk] },
    // The classes a login may report (loginAs(sub, { acr })), for acr_values.
    acrValues: [...TEST_ACR_VALUES],
    // read:user: the scope a plain OAuth 2.0 request asks for (GitHub's), with no openid.
    scopes: ['openid', 'offline_access', 'read:user'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Introspection stands in for a plain OAuth 2.0 provider's "who is this" API (GitHub's /user).
    features: { devInteractions: { enabled: false }, introspection: { enabled: true } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx: unknown, sub: string) => {
      const account = accounts.get(sub);
      return account === undefined ? undefined : { accountId: sub, claims: () => ({ ...account }) };
    },
    cookies: { keys: ['a-cookie-key-for-the-test-provider'] },
  } as never);
  // Loopback http: the provider's cookies must not be Secure, or the jar's stand-in would drop them.
  const callback = provider.callback();
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/') === true) {
      void (async () => {
        const details = await provider.interactionDetails(req, res);
        if (details.prompt.name === 'login') {
          await provider.interactionFinished(req, res, { login: nextAcr === undefined ? { accountId: nextLogin } : { accountId: nextLogin, acr: nextAcr } }, { mergeWithLastSubmission: false });
          return;
        }
        const grant = new provider.Grant({ accountId: details.session?.accountId as string, clientId: details.params.client_id as string });
        const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
        if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
        if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
        await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
      })().catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    callback(req, res);
  });
  return {
    issuer,
    clientId,
    clientSecret,
    loginAs(sub, login = {}) {
      nextLogin = sub;
      nextAcr = login.acr;
    },
    async resign(idToken, change) {
      const header = decodeProtectedHeader(idToken);
      const claims = change({ ...decodeJwt(idToken) });
      return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid: header.kid ?? 'op-key-1' }).sign(privateKey as JoseKey);
    },
    async forge(idToken) {
      const header = decodeProtectedHeader(idToken);
      const { privateKey: stranger } = await generateKeyPair('RS256');
      return new SignJWT({ ...decodeJwt(idToken) }).setProtectedHeader({ alg: 'RS256', kid: header.kid ?? 'op-key-1' }).sign(stranger as JoseKey);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A browser stand-in's cookie jar for the provider's host: name -> value, from Set-Cookie. */
class Jar {
  readonly #cookies = new Map<string, string>();
  take(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair === undefined || at < 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

/** Where the provider sent the browser back: a redirect to the app, or the `form_post` form's fields. */
export type ProviderReturn = { readonly kind: 'redirect'; readonly url: URL } | { readonly kind: 'form_post'; readonly action: string; readonly fields: URLSearchParams };

/**
 * Follows the provider's redirects from the authorization URL (the login and consent of the
 * test's choosing) until it sends the browser back to `appOrigin`.
 *
 * @example
 * const back = await signInAtProvider(location, 'http://app.test');
 */
export async function signInAtProvider(authorizationUrl: string, appOrigin: string): Promise<ProviderReturn> {
  const jar = new Jar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 12; hop++) {
    if (url.startsWith(appOrigin)) return { kind: 'redirect', url: new URL(url) };
    const response = await fetch(url, { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.take(response);
    const location = response.headers.get('location');
    if (location !== null) {
      url = new URL(location, url).href;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status === 200 && action !== undefined) {
      const fields = new URLSearchParams();
      for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"\s*\/?>/g)) fields.append(match[1] as string, decodeEntities(match[2] as string));
      return { kind: 'form_post', action: decodeEntities(action), fields };
    }
    throw new Error(`the provider answered ${response.status} at ${url}: ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects at the provider');
}

function decodeEntities(text: string): string {
  return text.replaceAll('&amp;', '&').replaceAll('&quot;', '"').replaceAll('&#x2F;', '/').replaceAll('&#39;', "'").replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}
