/**
 * HS256 access-token verification: jose vs Tessera's cold path vs its cache hit path.
 * Run: npx tsx bench/jwt-verify.ts
 *
 * Each iteration gets a freshly allocated copy of the token string (as a request header would be),
 * so the cached path pays for hashing the string, as it does in production. Rounds are interleaved
 * and the median round is reported, because this machine is noisy.
 */
import { SignJWT, jwtVerify } from 'jose';
import { systemClock } from '../lib/common/clock.js';
import { createAccessTokenVerifier } from '../lib/auth/credentials/jwt/index.js';

const ITERATIONS = 20_000;
const WARMUP = 2_000;
const ROUNDS = 5;
const COPIES = 1_024;

const secret = 'bench-secret-0123456789-abcdefghijklmnopqrstuvwxyz';
const secretBytes = new TextEncoder().encode(secret);
const now = Math.floor(Date.now() / 1000);
const token = await new SignJWT({ sub: 'user-123', roles: ['admin', 'editor'], tenant: 'tenant-1' })
  .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
  .setIssuedAt(now)
  .setExpirationTime(now + 3600)
  .setIssuer('https://id.example')
  .setAudience('api')
  .setJti('bench-jti-0000000000000')
  .sign(secretBytes);

// Fresh, flat strings: decoding bytes allocates a new string with no cached hash.
const copies = Array.from({ length: COPIES }, () => new TextDecoder().decode(new TextEncoder().encode(token)));
const copy = (i: number): string => copies[i % COPIES] ?? token;

const cryptoKey = await crypto.subtle.importKey('raw', secretBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
const options = { secret, algorithm: 'HS256', issuer: 'https://id.example', audience: 'api', clock: systemClock } as const;
const cold = createAccessTokenVerifier({ ...options, cache: false });
const cached = createAccessTokenVerifier(options);

const dot = token.lastIndexOf('.');
const signingInput = new TextEncoder().encode(token.slice(0, dot));
const signature = Uint8Array.from(atob(token.slice(dot + 1).replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));
// Reference only, and only in this Node-only script: the library itself never imports node:*.
const nodeCrypto = await import('node:crypto');
const nodeSignature = Buffer.from(signature);

function assertOk(ok: boolean, name: string): void {
  if (!ok) throw new Error(`${name} refused the benchmark token`);
}

type Case = { name: string; run: (i: number) => unknown; check: () => Promise<boolean> | boolean; async: boolean };

const cases: Case[] = [
  {
    name: 'jose jwtVerify (pre-imported CryptoKey)',
    async: true,
    run: (i) => jwtVerify(copy(i), cryptoKey, { algorithms: ['HS256'], typ: 'at+jwt', issuer: 'https://id.example', audience: 'api' }),
    check: async () => (await jwtVerify(token, cryptoKey, { algorithms: ['HS256'] })).payload.sub === 'user-123',
  },
  { name: 'tessera verify(), cold (cache off)', async: true, run: (i) => cold.verify(copy(i)), check: async () => (await cold.verify(token)).ok },
  { name: 'tessera verifySync(), cold (cache off)', async: false, run: (i) => cold.verifySync(copy(i)), check: () => cold.verifySync(token).ok },
  { name: 'tessera verify(), cache hit', async: true, run: (i) => cached.verify(copy(i)), check: async () => (await cached.verify(token)).ok },
  { name: 'tessera verifySync(), cache hit', async: false, run: (i) => cached.verifySync(copy(i)), check: () => cached.verifySync(token).ok },
  {
    name: 'ref: crypto.subtle.verify, MAC only',
    async: true,
    run: () => crypto.subtle.verify('HMAC', cryptoKey, signature, signingInput),
    check: () => crypto.subtle.verify('HMAC', cryptoKey, signature, signingInput),
  },
  {
    name: 'ref: node:crypto HMAC+timingSafeEqual, MAC only',
    async: false,
    run: (i) => nodeCrypto.timingSafeEqual(nodeCrypto.createHmac('sha256', secretBytes).update(copy(i).slice(0, dot)).digest(), nodeSignature),
    check: () => nodeCrypto.timingSafeEqual(nodeCrypto.createHmac('sha256', secretBytes).update(token.slice(0, dot)).digest(), nodeSignature),
  },
];

async function measure(c: Case, iterations: number): Promise<number> {
  const start = performance.now();
  if (c.async) {
    for (let i = 0; i < iterations; i++) await c.run(i);
  } else {
    for (let i = 0; i < iterations; i++) c.run(i);
  }
  return ((performance.now() - start) * 1000) / iterations;
}

for (const c of cases) {
  assertOk(await c.check(), c.name);
  await measure(c, WARMUP);
}

const samples = new Map<string, number[]>(cases.map((c) => [c.name, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const c of cases) samples.get(c.name)?.push(await measure(c, ITERATIONS));
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};
const joseUs = median(samples.get(cases[0]?.name ?? '') ?? []);
console.log(`HS256, ${token.length}-char token, ${ITERATIONS} iterations x ${ROUNDS} rounds (median round), Node ${process.version}`);
console.table(
  cases.map((c) => {
    const values = samples.get(c.name) ?? [];
    const us = median(values);
    return {
      case: c.name,
      'µs/op': us.toFixed(2),
      'ops/s': Math.round(1e6 / us).toLocaleString('en-US'),
      'min–max µs': `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`,
      'vs jose': `${(joseUs / us).toFixed(1)}x`,
    };
  }),
);
console.log(`cache stats after the run: ${JSON.stringify(cached.stats())}`);
