import { afterAll, describe, it, expect } from 'vitest';
import type { Argon2PasswordHasher } from './password-hasher.js';
import { describePasswordHasherContract } from './password-hasher-contract.js';
import { createWasmPasswordHasher } from './wasm-password-hasher.js';
import { createWorkerPasswordHasher } from './worker-password-hasher.js';

const opened: Argon2PasswordHasher[] = [];
async function open(options: Parameters<typeof createWorkerPasswordHasher>[0] = {}): Promise<Argon2PasswordHasher> {
  const hasher = await createWorkerPasswordHasher(options);
  opened.push(hasher);
  return hasher;
}
afterAll(async () => {
  await Promise.all(opened.map((hasher) => hasher.close()));
});

describePasswordHasherContract('worker', (parameters) => open(parameters === undefined ? {} : { parameters }));

describe('worker password hasher', () => {
  it('interoperates with the main-thread wasm hasher both ways', async () => {
    const worker = await open();
    const wasm = createWasmPasswordHasher();
    expect(await wasm.verify('a', await worker.hash('a'))).toBe(true);
    expect(await worker.verify('b', await wasm.hash('b'))).toBe(true);
  });

  it('runs more concurrent hashes than it has threads, all correct', async () => {
    const worker = await open({ workers: 2, parameters: { memoryCost: 1024, timeCost: 1, parallelism: 1 } });
    const passwords = Array.from({ length: 7 }, (_, i) => `password ${i}`);
    const hashes = await Promise.all(passwords.map((password) => worker.hash(password)));
    const checks = await Promise.all(hashes.map((stored, i) => worker.verify(passwords[(i + 1) % passwords.length]!, stored)));
    expect(checks.every((ok) => !ok)).toBe(true);
    const matches = await Promise.all(hashes.map((stored, i) => worker.verify(passwords[i]!, stored)));
    expect(matches.every(Boolean)).toBe(true);
  });

  it('rejects work after close()', async () => {
    const worker = await createWorkerPasswordHasher({ workers: 1 });
    await worker.close();
    await expect(worker.hash('late')).rejects.toThrow(/closed/);
  });

  it('refuses a non-positive thread count', async () => {
    await expect(createWorkerPasswordHasher({ workers: 0 })).rejects.toThrow(RangeError);
  });
});
