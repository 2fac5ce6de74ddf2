import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { atHashMatches } from './at-hash.js';

/** at_hash computed independently with node:crypto: the left half of the digest, base64url. */
function nodeAtHash(token: string, hash: 'sha256' | 'sha384' | 'sha512'): string {
  const digest = createHash(hash).update(token).digest();
  return digest.subarray(0, digest.length / 2).toString('base64url');
}

describe('atHashMatches (OIDC Core 3.1.3.6)', () => {
  it('matches the example of OpenID Connect Core, appendix A.4 (RS256)', async () => {
    expect(await atHashMatches('jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y', '77QmUPtjPfzWtF2AnpK9RQ', 'RS256')).toBe(true);
  });

  it('matches node:crypto\'s hash for each algorithm size', async () => {
    const token = 'an-access-token-0123456789';
    for (const [alg, hash] of [['RS256', 'sha256'], ['ES384', 'sha384'], ['PS512', 'sha512'], ['EdDSA', 'sha512']] as const) {
      expect(await atHashMatches(token, nodeAtHash(token, hash), alg), alg).toBe(true);
    }
  });

  it('refuses another token\'s hash, a hash of the wrong size and an unknown algorithm', async () => {
    const token = 'an-access-token-0123456789';
    expect(await atHashMatches('another-token', nodeAtHash(token, 'sha256'), 'RS256')).toBe(false);
    expect(await atHashMatches(token, nodeAtHash(token, 'sha512'), 'RS256')).toBe(false);
    expect(await atHashMatches(token, nodeAtHash(token, 'sha256'), 'none')).toBe(false);
    expect(await atHashMatches(token, nodeAtHash(token, 'sha256'), undefined)).toBe(false);
  });
});
