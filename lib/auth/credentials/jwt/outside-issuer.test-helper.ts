/**
 * Test-only: key pairs and a local JWKS server standing in for an identity provider. Tokens are
 * signed with jose's SignJWT, an implementation independent of the verifier's own checks.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, exportSPKI, generateKeyPair } from 'jose';
import type { CryptoKey, JWK } from 'jose';

/** @example const key = await makeIssuerKey('ES256', 'key-1'); */
export interface IssuerKey {
  readonly alg: 'RS256' | 'ES256' | 'EdDSA';
  readonly kid: string;
  readonly privateKey: CryptoKey;
  /** The public JWK as a provider publishes it: with `kid`, `alg` and `use`. */
  readonly jwk: JWK;
  readonly pem: string;
}

/**
 * A fresh key pair for one algorithm.
 *
 * @example
 * const rsa = await makeIssuerKey('RS256', 'rsa-1');
 */
export async function makeIssuerKey(alg: IssuerKey['alg'], kid: string): Promise<IssuerKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { alg, kid, privateKey, jwk, pem: await exportSPKI(publicKey) };
}

/**
 * Signs claims with an issuer key; `header` overrides or adds header parameters (`kid: undefined`
 * removes the kid).
 *
 * @example
 * const token = await signWith(rsa, { iss, aud: 'api', sub: 'u1', exp });
 */
export async function signWith(key: IssuerKey, claims: Record<string, unknown>, header: Record<string, unknown> = {}): Promise<string> {
  const protectedHeader = { alg: key.alg, kid: key.kid, typ: 'JWT', ...header };
  for (const [name, value] of Object.entries(protectedHeader)) if (value === undefined) delete (protectedHeader as Record<string, unknown>)[name];
  return new SignJWT(claims).setProtectedHeader(protectedHeader as never).sign(key.privateKey);
}

/** How the JWKS server answers: normally, with a 503, or never. @example server.setMode('down'); */
export type JwksServerMode = 'up' | 'down' | 'hang';

/** @example const server = await startJwksServer([rsa.jwk]); */
export interface JwksServer {
  readonly url: string;
  /** Requests received so far, answered or not. */
  hits(): number;
  setKeys(keys: readonly JWK[]): void;
  setMode(mode: JwksServerMode): void;
  close(): Promise<void>;
}

/**
 * A JWKS endpoint on 127.0.0.1 that counts its requests.
 *
 * @example
 * const server = await startJwksServer([rsa.jwk]);
 * try { ... } finally { await server.close(); }
 */
export async function startJwksServer(initialKeys: readonly JWK[]): Promise<JwksServer> {
  let keys = [...initialKeys];
  let mode: JwksServerMode = 'up';
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    if (mode === 'hang') return;
    if (mode === 'down') {
      response.writeHead(503).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'application/jwk-set+json' }).end(JSON.stringify({ keys }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/.well-known/jwks.json`,
    hits: () => hits,
    setKeys(next) {
      keys = [...next];
    },
    setMode(next) {
      mode = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
