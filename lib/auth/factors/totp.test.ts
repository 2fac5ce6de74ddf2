import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { generateTotpSecret, matchTotp, totpSecretBase32, totpUri } from './totp.js';

// RFC 6238 Appendix B: the seeds are ASCII digits, 20, 32 and 64 bytes long; 8-digit codes.
const SEEDS = {
  SHA1: '12345678901234567890',
  SHA256: '12345678901234567890123456789012',
  SHA512: '1234567890123456789012345678901234567890123456789012345678901234',
} as const;
const VECTORS: readonly (readonly [number, string, string, string])[] = [
  [59, '94287082', '46119246', '90693936'],
  [1111111109, '07081804', '68084774', '25091201'],
  [1111111111, '14050471', '67062674', '99943326'],
  [1234567890, '89005924', '91819424', '93441116'],
  [2000000000, '69279037', '90698825', '38618901'],
  [20000000000, '65353130', '77737706', '47863826'],
];

function oathtool(): string | undefined {
  try {
    return execFileSync('which', ['oathtool'], { encoding: 'utf8' }).trim() || undefined;
  } catch {
    return undefined;
  }
}

describe('TOTP (RFC 6238) through otpauth', () => {
  describe('RFC 6238 Appendix B test vectors', () => {
    for (const [seconds, sha1, sha256, sha512] of VECTORS) {
      for (const [algorithm, expected] of [['SHA1', sha1], ['SHA256', sha256], ['SHA512', sha512]] as const) {
        it(`${algorithm} at T=${seconds} is ${expected}`, () => {
          const secret = Secret.fromLatin1(SEEDS[algorithm]);
          const code = TOTP.generate({ secret, algorithm, digits: 8, period: 30, timestamp: seconds * 1000 });
          expect(code, `otpauth's ${algorithm} code at ${seconds}s`).toBe(expected);
        });
      }
    }

    it('matchTotp accepts the SHA1 vectors as 6-digit codes (the last six digits) at their own step', () => {
      const secret = new TextEncoder().encode(SEEDS.SHA1);
      for (const [seconds, sha1] of VECTORS) {
        expect(matchTotp(secret, sha1.slice(2), seconds * 1000), `vector at ${seconds}s`).toBe(Math.floor(seconds / 30));
      }
    });
  });

  it('an independent HMAC (node:crypto, RFC 4226 truncation written here) agrees with matchTotp on a random secret', () => {
    const secret = generateTotpSecret();
    const now = Date.parse('2026-11-28T08:00:00Z');
    const step = Math.floor(now / 30_000);
    const counter = Buffer.alloc(8);
    counter.writeBigUInt64BE(BigInt(step));
    const mac = createHmac('sha1', Buffer.from(secret)).update(counter).digest();
    const offset = mac[mac.length - 1]! & 0x0f;
    const code = String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
    expect(matchTotp(secret, code, now)).toBe(step);
  });

  const tool = oathtool();
  it.skipIf(tool === undefined)("a code from Debian's oathtool for a fresh secret is accepted at its step (skipped when oathtool is not installed)", () => {
    const secret = generateTotpSecret();
    const seconds = 1_795_000_000;
    const code = execFileSync(tool as string, ['--totp', '-b', totpSecretBase32(secret), '--now', `@${seconds}`], { encoding: 'utf8' }).trim();
    expect(code, 'oathtool answers six digits').toMatch(/^[0-9]{6}$/);
    expect(matchTotp(secret, code, seconds * 1000), 'the oathtool code matches at its own step').toBe(Math.floor(seconds / 30));
  });

  it.skipIf(tool === undefined)('oathtool reads the URI secret as the same 20 bytes (raw bytes, not text)', () => {
    const secret = generateTotpSecret();
    const uri = new URL(totpUri(secret, { issuer: 'Acme', account: 'alice@acme.test' }));
    const hex = Buffer.from(secret).toString('hex');
    const fromHex = execFileSync(tool as string, ['--totp', hex, '--now', '@1795000000'], { encoding: 'utf8' }).trim();
    const fromUri = execFileSync(tool as string, ['--totp', '-b', uri.searchParams.get('secret') as string, '--now', '@1795000000'], { encoding: 'utf8' }).trim();
    expect(fromUri).toBe(fromHex);
  });

  it('accepts the previous and next step (±30 s) and nothing further', () => {
    const secret = generateTotpSecret();
    const now = 1_795_000_000_000;
    const at = (ms: number) => TOTP.generate({ secret: new Secret({ buffer: Uint8Array.from(secret).buffer }), timestamp: ms });
    const step = Math.floor(now / 30_000);
    expect(matchTotp(secret, at(now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(secret, at(now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(secret, at(now - 60_000), now), 'two steps back').toBeUndefined();
    expect(matchTotp(secret, at(now + 60_000), now), 'two steps ahead').toBeUndefined();
  });

  it('refuses anything but six digits', () => {
    const secret = generateTotpSecret();
    for (const code of ['', '12345', '1234567', '12345a', ' 123456', '１２３４５６']) expect(matchTotp(secret, code, 0), JSON.stringify(code)).toBeUndefined();
  });

  it('the URI carries issuer, account, SHA1, 6 digits, 30 s and the base32 of the raw secret', () => {
    const secret = generateTotpSecret();
    const uri = new URL(totpUri(secret, { issuer: 'Acme', account: 'alice@acme.test' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Acme');
    expect(uri.searchParams.get('algorithm')).toBe('SHA1');
    expect(uri.searchParams.get('digits')).toBe('6');
    expect(uri.searchParams.get('period')).toBe('30');
    expect(uri.searchParams.get('secret')).toBe(totpSecretBase32(secret));
    expect(Secret.fromBase32(totpSecretBase32(secret)).bytes).toEqual(secret);
  });
});
