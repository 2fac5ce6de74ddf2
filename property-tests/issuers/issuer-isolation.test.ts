// Outside issuers against an independent model: a token is accepted exactly when the issuer its
// `iss` names holds the key that signed it (matched by kid when the token has one) and the
// audience is that issuer's; the app's own HMAC tokens only when `iss` is the app's own. Kids
// collide across issuers on purpose, so a kid never decides on its own which issuer's key is used.
import fc from 'fast-check';
import { SignJWT } from 'jose';
import type { JWK } from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../lib/common/clock.js';
import { createBearerTokenVerifier } from '../../lib/auth/credentials/jwt/bearer-token-verifier.js';
import type { TrustedIssuerOptions } from '../../lib/auth/credentials/jwt/trusted-issuer-options.js';
import { makeIssuerKey } from '../../lib/auth/credentials/jwt/outside-issuer.test-helper.js';
import type { IssuerKey } from '../../lib/auth/credentials/jwt/outside-issuer.test-helper.js';

const RUNS = { numRuns: 150 };
const NOW_S = 1_800_000_000;
const SECRET = 'property-secret-0123456789-abcdefghijkl';
const OWN = 'https://api.example';
const ISSUERS = ['https://one.example/', 'https://two.example/', 'https://three.example/'] as const;
const AUDIENCES = ['api-one', 'api-two', 'api-three'] as const;
/** Which pool keys each issuer publishes: issuer 1 has two keys of different types. */
const OWNED: readonly (readonly number[])[] = [[0], [1, 3], [2]];
const KIDS = ['a', 'b'] as const;

let pool: IssuerKey[];
beforeAll(async () => {
  pool = await Promise.all([
    makeIssuerKey('RS256', 'k0'),
    makeIssuerKey('ES256', 'k1'),
    makeIssuerKey('EdDSA', 'k2'),
    makeIssuerKey('RS256', 'k3'),
  ]);
});

const HMAC = 4;
const tokenArb: fc.Arbitrary<Case> = fc.record({
  // The kid each pool key is published under by its issuer, drawn per run so kids often collide.
  publishedKids: fc.array(fc.constantFrom(...KIDS), { minLength: 4, maxLength: 4 }),
  signer: fc.integer({ min: 0, max: HMAC }),
  iss: fc.constantFrom<string | undefined>(...ISSUERS, OWN, 'https://unknown.example/', undefined),
  kid: fc.constantFrom<string | undefined>(...KIDS, undefined),
  audience: fc.constantFrom<string>(...AUDIENCES, 'api-other'),
});
interface Case {
  readonly publishedKids: readonly string[];
  readonly signer: number;
  readonly iss: string | undefined;
  readonly kid: string | undefined;
  readonly audience: string;
}

function model(c: Case): boolean {
  if (c.signer === HMAC) return c.iss === OWN;
  const named = ISSUERS.findIndex((issuer) => issuer === c.iss);
  if (named < 0) return false;
  if (!(OWNED[named] ?? []).includes(c.signer)) return false;
  if (c.kid !== undefined && c.kid !== c.publishedKids[c.signer]) return false;
  return c.audience === AUDIENCES[named];
}

async function sign(c: Case): Promise<string> {
  const claims = { sub: 'someone', aud: c.audience, iat: NOW_S, exp: NOW_S + 600, ...(c.iss === undefined ? {} : { iss: c.iss }) };
  if (c.signer === HMAC) {
    return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', ...(c.kid === undefined ? {} : { kid: c.kid }) }).sign(new TextEncoder().encode(SECRET));
  }
  const key = pool[c.signer]!;
  return new SignJWT(claims).setProtectedHeader({ alg: key.alg, ...(c.kid === undefined ? {} : { kid: c.kid }) }).sign(key.privateKey);
}

function trustedIssuers(publishedKids: readonly string[]): TrustedIssuerOptions[] {
  return ISSUERS.map((issuer, index) => ({
    issuer,
    audience: AUDIENCES[index]!,
    jwks: { keys: (OWNED[index] ?? []).map((k): JWK => ({ ...pool[k]!.jwk, kid: publishedKids[k] })) },
  }));
}

describe('outside issuers (property)', () => {
  it('accepts a token exactly when the issuer it names holds its signing key and audience', async () => {
    await fc.assert(
      fc.asyncProperty(tokenArb, async (c) => {
        const verifier = createBearerTokenVerifier({
          own: { secret: SECRET, algorithm: 'HS256', issuer: OWN },
          trustedIssuers: trustedIssuers(c.publishedKids),
          clock: createManualClock(NOW_S * 1000),
          cache: false,
        });
        const result = await verifier.verify(await sign(c));
        expect(result.ok, `signer ${c.signer}, iss ${String(c.iss)}, kid ${String(c.kid)}, aud ${c.audience}, published ${c.publishedKids.join('')}`).toBe(model(c));
      }),
      RUNS,
    );
  });
});
