import { AuthConfigError } from '../../shared/auth-config-error.js';
import { readAudienceOption, readIssuerOption } from './audience-and-issuer-options.js';

/**
 * A JSON Web Key Set (RFC 7517, section 5) as a provider publishes it: the shape of jose's
 * `JSONWebKeySet`, written out so that the auth declarations import nothing from jose, an ES module
 * whose types CommonJS projects (`module: node16`) cannot import.
 *
 * @example
 * const jwks: JsonWebKeySet = { keys: [{ kty: 'EC', crv: 'P-256', kid: 'k1', x: '...', y: '...' }] };
 */
export interface JsonWebKeySet {
  readonly keys: readonly { readonly kty?: string; readonly kid?: string; readonly alg?: string; readonly [parameter: string]: unknown }[];
}

/**
 * The public-key JWS algorithms an outside issuer may be pinned to. Never HMAC: an issuer's keys
 * are public, and an HS token verified against a public key (used as an HMAC secret) is the classic
 * algorithm-confusion forgery. `none` is not an algorithm here either.
 *
 * @example
 * const algorithms: readonly AsymmetricAlgorithm[] = ['RS256'];
 */
export type AsymmetricAlgorithm = 'RS256' | 'RS384' | 'RS512' | 'PS256' | 'PS384' | 'PS512' | 'ES256' | 'ES384' | 'ES512' | 'EdDSA' | 'Ed25519';

const ASYMMETRIC_ALGORITHMS: ReadonlySet<string> = new Set<AsymmetricAlgorithm>([
  'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519',
]);

/**
 * What an issuer is pinned to when `algorithms` is not given: what Auth0, Keycloak, Cognito,
 * Entra and Okta sign with (RS256), plus the two common curve algorithms.
 *
 * @example
 * DEFAULT_ISSUER_ALGORITHMS; // ['RS256', 'ES256', 'EdDSA']
 */
export const DEFAULT_ISSUER_ALGORITHMS: readonly AsymmetricAlgorithm[] = Object.freeze(['RS256', 'ES256', 'EdDSA']);

/**
 * An identity provider whose access tokens the app accepts beside its own. Give exactly one key
 * source: `jwksUrl` (fetched, cached, refetched on an unknown `kid`), `jwks` (a static key set) or
 * `publicKeys` (PEM SPKI strings).
 *
 * @example
 * const auth0: TrustedIssuerOptions = {
 *   issuer: 'https://acme.eu.auth0.com/',
 *   audience: 'https://api.acme.test',
 *   jwksUrl: 'https://acme.eu.auth0.com/.well-known/jwks.json',
 * };
 */
export interface TrustedIssuerOptions {
  /** The exact `iss` of the provider's tokens; tokens are routed to this issuer by it. */
  readonly issuer: string;
  /**
   * `aud` must contain one of these. Required: an identity provider signs tokens for every API
   * and app of the tenant, and accepting them all is the usual mistake. `false` accepts any
   * audience, for providers whose access tokens carry none (Cognito: check `client_id` in the
   * claims schema instead).
   */
  readonly audience: string | readonly string[] | false;
  /** The provider's JWKS endpoint (`jwks_uri` of its discovery document). https, or http on loopback. */
  readonly jwksUrl?: string | URL;
  /** A static JSON Web Key Set. */
  readonly jwks?: JsonWebKeySet;
  /** Public keys as PEM (`-----BEGIN PUBLIC KEY-----`). */
  readonly publicKeys?: readonly string[];
  /** Accepted `alg` values; default RS256, ES256 and EdDSA. */
  readonly algorithms?: readonly AsymmetricAlgorithm[];
  /** When true, only `typ: at+jwt` (RFC 9068) tokens from this issuer are accepted. */
  readonly requireAccessTokenType?: boolean;
  /** Milliseconds one JWKS request may take; default 5000. */
  readonly jwksTimeoutMs?: number;
  /** Seconds between two JWKS requests caused by unknown `kid`s or failures; default 30. */
  readonly jwksCooldownSeconds?: number;
  /** Seconds after which the key set is refreshed in the background (kept if that fails); default 600. */
  readonly jwksMaxAgeSeconds?: number;
  /** The fetch used for the JWKS endpoint; default the global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * A validated, normalised {@link TrustedIssuerOptions}.
 *
 * @example
 * const issuer: TrustedIssuer = readTrustedIssuer(options);
 */
export interface TrustedIssuer {
  readonly issuer: string;
  readonly audiences: readonly string[] | undefined;
  readonly keySource:
    | { readonly kind: 'remote'; readonly url: URL; readonly timeoutMs: number; readonly cooldownMs: number; readonly maxAgeMs: number; readonly fetch: typeof fetch | undefined }
    | { readonly kind: 'static'; readonly jwks: JsonWebKeySet }
    | { readonly kind: 'pem'; readonly pems: readonly string[] };
  readonly algorithms: readonly AsymmetricAlgorithm[];
  readonly strictType: boolean;
}

/**
 * Validates the `trustedIssuers` option against the app's own issuer: every entry well formed,
 * no issuer twice, and none equal to the app's own `issuer` (a token's `iss` must name exactly
 * one verifier). Throws `AuthConfigError` at boot rather than misroute tokens later.
 *
 * @example
 * const issuers = readTrustedIssuers(options.trustedIssuers, options.issuer);
 */
export function readTrustedIssuers(list: unknown, ownIssuer: string | undefined): readonly TrustedIssuer[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw new AuthConfigError('trustedIssuers must be an array');
  const seen = new Set<string>();
  return Object.freeze(
    list.map((entry: unknown) => {
      const issuer = readTrustedIssuer(entry);
      if (issuer.issuer === ownIssuer) throw new AuthConfigError(`Trusted issuer ${JSON.stringify(issuer.issuer)} is also the app's own issuer`);
      if (seen.has(issuer.issuer)) throw new AuthConfigError(`Trusted issuer ${JSON.stringify(issuer.issuer)} is listed twice`);
      seen.add(issuer.issuer);
      return issuer;
    }),
  );
}

/**
 * Validates one {@link TrustedIssuerOptions}.
 *
 * @example
 * readTrustedIssuer({ issuer: 'https://id.example/', audience: 'api', jwks: { keys } });
 */
export function readTrustedIssuer(value: unknown): TrustedIssuer {
  if (typeof value !== 'object' || value === null) throw new AuthConfigError('Each trusted issuer must be an object');
  const options = value as TrustedIssuerOptions;
  const issuer = readIssuerOption(options.issuer);
  if (issuer === undefined) throw new AuthConfigError('A trusted issuer needs an issuer');
  const name = JSON.stringify(issuer);
  let audiences: readonly string[] | undefined;
  if (options.audience === false) audiences = undefined;
  else {
    const audience = readAudienceOption(options.audience);
    if (audience === undefined) throw new AuthConfigError(`Trusted issuer ${name} needs an audience (or audience: false to accept any)`);
    audiences = typeof audience === 'string' ? [audience] : audience;
  }
  return Object.freeze({
    issuer,
    audiences,
    keySource: readKeySource(options, name),
    algorithms: readAlgorithms(options.algorithms, name),
    strictType: options.requireAccessTokenType === true,
  });
}

function readKeySource(options: TrustedIssuerOptions, name: string): TrustedIssuer['keySource'] {
  const given = [options.jwksUrl, options.jwks, options.publicKeys].filter((source) => source !== undefined).length;
  if (given !== 1) throw new AuthConfigError(`Trusted issuer ${name} needs exactly one of jwksUrl, jwks or publicKeys`);
  if (options.jwks !== undefined) {
    if (typeof options.jwks !== 'object' || options.jwks === null || !Array.isArray(options.jwks.keys)) {
      throw new AuthConfigError(`Trusted issuer ${name}: jwks must be a JSON Web Key Set ({ keys: [...] })`);
    }
    return { kind: 'static', jwks: structuredClone(options.jwks) };
  }
  if (options.publicKeys !== undefined) {
    const pems = options.publicKeys;
    if (!Array.isArray(pems) || pems.length === 0 || !pems.every((pem) => typeof pem === 'string' && pem.includes('-----BEGIN PUBLIC KEY-----'))) {
      throw new AuthConfigError(`Trusted issuer ${name}: publicKeys must be a non-empty array of PEM public keys`);
    }
    return { kind: 'pem', pems: Object.freeze([...pems]) };
  }
  let url: URL;
  try {
    url = new URL(options.jwksUrl as string | URL);
  } catch {
    throw new AuthConfigError(`Trusted issuer ${name}: jwksUrl is not a URL`);
  }
  // Keys fetched over plain HTTP could be swapped by anyone on the path, which would let them mint
  // tokens; loopback is allowed for local development and tests.
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    throw new AuthConfigError(`Trusted issuer ${name}: jwksUrl must be https (http only on a loopback host)`);
  }
  return {
    kind: 'remote',
    url,
    timeoutMs: readPositive(options.jwksTimeoutMs, 5000, 'jwksTimeoutMs', name, true),
    cooldownMs: readPositive(options.jwksCooldownSeconds, 30, 'jwksCooldownSeconds', name, false) * 1000,
    maxAgeMs: readPositive(options.jwksMaxAgeSeconds, 600, 'jwksMaxAgeSeconds', name, false) * 1000,
    fetch: readFetch(options.fetch, name),
  };
}

function readAlgorithms(value: unknown, name: string): readonly AsymmetricAlgorithm[] {
  if (value === undefined) return DEFAULT_ISSUER_ALGORITHMS;
  if (!Array.isArray(value) || value.length === 0) throw new AuthConfigError(`Trusted issuer ${name}: algorithms must be a non-empty array`);
  for (const algorithm of value) {
    if (typeof algorithm !== 'string' || !ASYMMETRIC_ALGORITHMS.has(algorithm)) {
      const shown = typeof algorithm === 'string' ? JSON.stringify(algorithm.slice(0, 16)) : typeof algorithm;
      throw new AuthConfigError(`Trusted issuer ${name}: algorithm ${shown} is not a public-key JWS algorithm`);
    }
  }
  return Object.freeze([...(value as AsymmetricAlgorithm[])]);
}

function readPositive(value: unknown, fallback: number, option: string, name: string, integer: boolean): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0 || (integer && !Number.isSafeInteger(value))) {
    throw new AuthConfigError(`Trusted issuer ${name}: ${option} must be a positive ${integer ? 'integer' : 'number'}`);
  }
  return value;
}

function readFetch(value: unknown, name: string): typeof fetch | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'function') throw new AuthConfigError(`Trusted issuer ${name}: fetch must be a function`);
  return value as typeof fetch;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);
}
