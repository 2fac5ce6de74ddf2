// Test-only fixtures shared by this folder's tests: the published Argon2id reference vectors and
// a catalogue of malformed stored hashes. Not exported from index.ts.
import type { PasswordHashFormatReason } from './password-errors.js';

// Published vectors from the reference implementation's test suite (phc-winner-argon2
// src/test.c, Argon2id, version 0x13): password "password", salt "somesalt", t=2, p=1.
export const REFERENCE_SALT = 'c29tZXNhbHQ';
export const REFERENCE_HASH = 'CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc';
export const REFERENCE_VECTOR = `$argon2id$v=19$m=65536,t=2,p=1$${REFERENCE_SALT}$${REFERENCE_HASH}`;
export const REFERENCE_PASSWORD = 'password';
export const REFERENCE_TAG_HEX = '09316115d5cf24ed5a15a31a3ba326e5cf32edc24702987c02b6566f61913cf7';
/** Same inputs with m=256: cheap enough to run against every backend. */
export const SMALL_REFERENCE_VECTOR = `$argon2id$v=19$m=256,t=2,p=1$${REFERENCE_SALT}$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4`;

/** Every way a stored hash can be wrong, with the reason the parser must give. */
export const MALFORMED_HASHES: ReadonlyArray<readonly [string, unknown, PasswordHashFormatReason]> = [
  ['a number', 42, 'not-a-string'],
  ['undefined', undefined, 'not-a-string'],
  ['an over-long string', `$argon2id$v=19$m=65536,t=2,p=1$${REFERENCE_SALT}$${'A'.repeat(400)}`, 'too-long'],
  ['the empty string', '', 'structure'],
  ['no leading $', REFERENCE_VECTOR.slice(1), 'structure'],
  ['a missing field', `$argon2id$v=19$m=65536,t=2,p=1$${REFERENCE_HASH}`, 'structure'],
  ['an extra field', `${REFERENCE_VECTOR}$AAAA`, 'structure'],
  ['a missing version', `$argon2id$m=65536,t=2,p=1$${REFERENCE_SALT}$${REFERENCE_HASH}`, 'structure'],
  ['argon2i', REFERENCE_VECTOR.replace('argon2id', 'argon2i'), 'algorithm'],
  ['argon2d', REFERENCE_VECTOR.replace('argon2id', 'argon2d'), 'algorithm'],
  ['upper-case algorithm', REFERENCE_VECTOR.replace('argon2id', 'ARGON2ID'), 'algorithm'],
  ['bcrypt-like id', REFERENCE_VECTOR.replace('argon2id', '2b'), 'algorithm'],
  ['version 16', REFERENCE_VECTOR.replace('v=19', 'v=16'), 'version'],
  ['version with leading zero', REFERENCE_VECTOR.replace('v=19', 'v=019'), 'version'],
  ['version in hex', REFERENCE_VECTOR.replace('v=19', 'v=0x13'), 'version'],
  ['missing p', REFERENCE_VECTOR.replace('m=65536,t=2,p=1', 'm=65536,t=2'), 'parameters'],
  ['missing m', REFERENCE_VECTOR.replace('m=65536,t=2,p=1', 't=2,p=1'), 'parameters'],
  ['empty parameters', REFERENCE_VECTOR.replace('m=65536,t=2,p=1', ''), 'parameters'],
  ['non-numeric t', REFERENCE_VECTOR.replace('t=2', 't=two'), 'parameters'],
  ['empty m value', REFERENCE_VECTOR.replace('m=65536', 'm='), 'parameters'],
  ['negative m', REFERENCE_VECTOR.replace('m=65536', 'm=-65536'), 'parameters'],
  ['fractional m', REFERENCE_VECTOR.replace('m=65536', 'm=65536.5'), 'parameters'],
  ['m with leading zero', REFERENCE_VECTOR.replace('m=65536', 'm=065536'), 'parameters'],
  ['m with exponent', REFERENCE_VECTOR.replace('m=65536', 'm=6e4'), 'parameters'],
  ['m with eleven digits', REFERENCE_VECTOR.replace('m=65536', 'm=10000000000'), 'parameters'],
  ['reordered parameters', REFERENCE_VECTOR.replace('m=65536,t=2,p=1', 't=2,m=65536,p=1'), 'parameters'],
  ['a space in parameters', REFERENCE_VECTOR.replace('m=65536,t=2,p=1', 'm=65536, t=2,p=1'), 'parameters'],
  ['an extra keyid parameter', REFERENCE_VECTOR.replace('p=1', 'p=1,keyid=abc'), 'parameters'],
  ['m above 1 GiB', REFERENCE_VECTOR.replace('m=65536', 'm=1048577'), 'parameters'],
  ['m of 4 GiB', REFERENCE_VECTOR.replace('m=65536', 'm=4294967295'), 'parameters'],
  ['m below 8 KiB per lane', REFERENCE_VECTOR.replace('m=65536,t=2,p=1', 'm=15,t=2,p=2'), 'parameters'],
  ['t=0', REFERENCE_VECTOR.replace('t=2', 't=0'), 'parameters'],
  ['t above the limit', REFERENCE_VECTOR.replace('t=2', 't=65'), 'parameters'],
  ['p=0', REFERENCE_VECTOR.replace('p=1', 'p=0'), 'parameters'],
  ['p=256', REFERENCE_VECTOR.replace('p=1', 'p=256'), 'parameters'],
  ['padded salt', REFERENCE_VECTOR.replace(REFERENCE_SALT, `${REFERENCE_SALT}=`), 'salt'],
  ['URL-safe salt', REFERENCE_VECTOR.replace(REFERENCE_SALT, 'c29tZXNhbH_'), 'salt'],
  ['salt with invalid character', REFERENCE_VECTOR.replace(REFERENCE_SALT, 'c29tZXNh*HQ'), 'salt'],
  ['salt of impossible length', REFERENCE_VECTOR.replace(REFERENCE_SALT, 'c29tZXNhbHQAA'.slice(0, 9)), 'salt'],
  ['non-canonical salt', REFERENCE_VECTOR.replace(REFERENCE_SALT, 'c29tZXNhbHR'), 'salt'],
  ['empty salt', REFERENCE_VECTOR.replace(REFERENCE_SALT, ''), 'salt'],
  ['salt of 4 bytes', REFERENCE_VECTOR.replace(REFERENCE_SALT, 'c29tZQ'), 'salt'],
  ['salt of 65 bytes', REFERENCE_VECTOR.replace(REFERENCE_SALT, 'A'.repeat(87)), 'salt'],
  ['hash with invalid character', REFERENCE_VECTOR.replace(REFERENCE_HASH, REFERENCE_HASH.replace('Fh', 'F!')), 'hash'],
  ['padded hash', `${REFERENCE_VECTOR}=`, 'hash'],
  ['hash with trailing newline', `${REFERENCE_VECTOR}\n`, 'hash'],
  ['hash of 8 bytes', REFERENCE_VECTOR.replace(REFERENCE_HASH, 'CTFhFdXPJO0'), 'hash'],
  ['empty hash', REFERENCE_VECTOR.replace(REFERENCE_HASH, ''), 'hash'],
];
