import { describe, it, expect } from 'vitest';
import { hashPassword } from './hash-password.js';
import { verifyPassword } from './verify-password.js';

describe('hashPassword', () => {
  it('returns an Argon2id PHC string with the SPEC cost, a 16-byte salt and a 32-byte hash', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  });

  it('round-trips through verifyPassword, and a wrong password is false', async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(await verifyPassword('correct horse battery staple', stored)).toBe(true);
    expect(await verifyPassword('wrong horse battery staple', stored)).toBe(false);
  });

  it('salts randomly: the same password never gives the same string', async () => {
    const hashes = await Promise.all(Array.from({ length: 5 }, () => hashPassword('same')));
    expect(new Set(hashes).size).toBe(5);
  });
});
