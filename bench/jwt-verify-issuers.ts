/**
 * Bearer verification cost by algorithm: the app's own HS256 tokens next to an outside issuer's
 * RS256, ES256 and EdDSA tokens, each uncached (cache off) and cached (the same token again),
 * through createBearerTokenVerifier as AuthModule uses it, with jose's jwtVerify as the reference
 * for the public-key algorithms. Keys come from a static JWKS, so no network is measured.
 * Run: npx tsx bench/jwt-verify-issuers.ts
 *
 * Rounds are interleaved and the median round is reported, because this machine is noisy. Every
 * iteration verifies a freshly allocated copy of the token string, as a request header would be.
 */
import { SignJWT, createLocalJWKSet, jwtVerify } from 'jose';
import { systemClock } from '../lib/common/clock.js';
import { createBearerTokenVerifier } from '../lib/auth/credentials/jwt/index.js';
import type { VerificationResult } from '../lib/auth/credentials/jwt/index.js';
import { makeIssuerKey } from '../lib/auth/credentials/jwt/outside-issuer.test-helper.js';

const ROUNDS = 5;
const COPIES = 512;
const secret = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const OWN = 'https://api.example';
const IDP = 'https://idp.example/';
const AUDIENCE = 'https://api.example/v1';
const now = Math.floor(Date.now() / 1000);
const claims = { sub: 'idp|user-123', roles: ['admin', 'editor'], aud: AUDIENCE, iat: now, exp: now + 3600 };

const keys = await Promise.all([makeIssuerKey('RS256', 'rsa'), makeIssuerKey('ES256', 'ec'), makeIssuerKey('EdDSA', 'ed')]);
const jwks = { keys: keys.map((key) => key.jwk) };
const options = {
  own: { secret, algorithm: 'HS256', issuer: OWN },
  trustedIssuers: [{ issuer: IDP, audience: AUDIENCE, jwks }],
  clock: systemClock,
} as const;
const uncached = createBearerTokenVerifier({ ...options, cache: false });
const cached = createBearerTokenVerifier(options);
const localSet = createLocalJWKSet(jwks);

const tokens: Record<string, string> = {
  HS256: await new SignJWT({ ...claims, iss: OWN }).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).sign(new TextEncoder().encode(secret)),
};
for (const key of keys) {
  tokens[key.alg] = await new SignJWT({ ...claims, iss: IDP }).setProtectedHeader({ alg: key.alg, kid: key.kid, typ: 'JWT' }).sign(key.privateKey);
}

const copiesOf = (token: string): string[] => Array.from({ length: COPIES }, () => new TextDecoder().decode(new TextEncoder().encode(token)));

interface Case {
  readonly name: string;
  readonly iterations: number;
  readonly run: (token: string) => VerificationResult | Promise<unknown>;
}

function check(result: VerificationResult, name: string): void {
  if (!result.ok) throw new Error(`${name} refused the benchmark token: ${result.reason}`);
}

async function measure(c: Case, copies: string[], iterations: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) {
    const result = c.run(copies[i % COPIES] ?? '');
    if (result instanceof Promise) await result;
  }
  return ((performance.now() - start) * 1000) / iterations;
}

const rows: { algorithm: string; case: string; us: number[] }[] = [];
for (const [algorithm, token] of Object.entries(tokens)) {
  const copies = copiesOf(token);
  const publicKey = algorithm !== 'HS256';
  const cases: Case[] = [
    { name: 'tessera, uncached', iterations: publicKey ? 2_000 : 20_000, run: (t) => uncached.verify(t) },
    { name: 'tessera, cached', iterations: 50_000, run: (t) => cached.verify(t) },
  ];
  if (publicKey) {
    cases.push({ name: 'ref: jose jwtVerify (local JWKS)', iterations: 2_000, run: (t) => jwtVerify(t, localSet, { issuer: IDP, audience: AUDIENCE }) });
  }
  check(await uncached.verify(token), `${algorithm} uncached`);
  check(await cached.verify(token), `${algorithm} cached`);
  for (const c of cases) await measure(c, copies, Math.min(c.iterations, 1_000));
  const samples = cases.map(() => [] as number[]);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [index, c] of cases.entries()) samples[index]?.push(await measure(c, copies, c.iterations));
  }
  for (const [index, c] of cases.entries()) rows.push({ algorithm, case: c.name, us: samples[index] ?? [] });
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const hsUncached = median(rows.find((row) => row.algorithm === 'HS256' && row.case === 'tessera, uncached')?.us ?? []);
console.log(`Bearer verification by algorithm, ${ROUNDS} rounds (median round), Node ${process.version}`);
console.table(
  rows.map((row) => ({
    algorithm: row.algorithm,
    case: row.case,
    'µs/op': median(row.us).toFixed(2),
    'min–max µs': `${Math.min(...row.us).toFixed(2)}–${Math.max(...row.us).toFixed(2)}`,
    'vs HS256 uncached': `${(median(row.us) / hsUncached).toPrecision(2)}x`,
  })),
);
console.log(`token sizes: ${Object.entries(tokens).map(([alg, token]) => `${alg} ${token.length}`).join(', ')} chars`);
