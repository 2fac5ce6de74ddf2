// Where idempotent()'s seal should leave the calling thread (lib/idempotency/sealed-answer.ts,
// SYNC_SEAL_MAX_BYTES): for answers of several sizes, the CPU of sealing and of opening one
// (a) by XChaCha20-Poly1305 from @noble/ciphers on the calling thread (its key derived first, as
// sealAnswer does; its CPU is also how long it holds the event loop), and (b) by AES-256-GCM in Web
// Crypto (the key derived and imported, then the job; the process's CPU, the crypto thread's
// included). Beside them, the base64url encoding and decoding of the sealed bytes, which both
// formats do on the calling thread alike. Sizes and variants alternate within each round; medians
// of ROUNDS rounds, µs per operation.
//   node --import ./scripts/register-swc.mjs bench/seal-threshold.ts
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { aesGcmAnswerKey, xchachaAnswerKey } from '../lib/idempotency/answer-keys.js';
import { decodeBase64, encodeBase64 } from '../lib/common/base64.js';
import { idempotencyMaterial } from '../lib/idempotency/request-fingerprint.js';

const SIZES = (process.env.BENCH_SIZES ?? '256,1024,4096,8192,16384,32768,65536').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
/** Operations per measurement: about 40 ms of work each. */
const opsFor = (size: number) => Math.max(20, Math.round(400_000 / (size + 2_000)));
const material = idempotencyMaterial('POST', '/orders', 'user:alice', '8e03978e-40d5-43e8-bc93-6894a57f9324');
const nonce = crypto.getRandomValues(new Uint8Array(24));
const iv = crypto.getRandomValues(new Uint8Array(12));

async function cpuPerOp(ops: number, run: () => unknown): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < ops; i++) await run();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / ops;
}

type Variant = 'v2 seal' | 'v2 open' | 'v1 seal' | 'v1 open' | 'base64';
const samples = new Map<string, number[]>();
const records = new Map<number, { v2: Uint8Array; v1: Uint8Array<ArrayBuffer>; text: string; plain: Uint8Array<ArrayBuffer> }>();
for (const size of SIZES) {
  const plain = crypto.getRandomValues(new Uint8Array(size));
  const key = xchachaAnswerKey(material) as Uint8Array;
  const aes = await aesGcmAnswerKey(material);
  const v2 = xchacha20poly1305(key, nonce).encrypt(plain);
  records.set(size, { v2, v1: new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aes, plain)), text: encodeBase64(v2), plain });
}

/** The work of each variant, as sealAnswer and openAnswer do it (the key derived each time). */
function variantsFor(size: number): Record<Variant, () => unknown> {
  const { v2, v1, text, plain } = records.get(size)!;
  return {
    'v2 seal': () => xchacha20poly1305(xchachaAnswerKey(material) as Uint8Array, nonce).encrypt(plain),
    'v2 open': () => xchacha20poly1305(xchachaAnswerKey(material) as Uint8Array, nonce).decrypt(v2),
    'v1 seal': async () => crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await aesGcmAnswerKey(material), plain),
    'v1 open': async () => crypto.subtle.decrypt({ name: 'AES-GCM', iv }, await aesGcmAnswerKey(material), v1),
    base64: () => decodeBase64(encodeBase64(v2)) ?? text,
  };
}

for (let round = -1; round < ROUNDS; round++) {
  for (const size of SIZES) {
    for (const [name, run] of Object.entries(variantsFor(size))) {
      const cpu = await cpuPerOp(opsFor(size), run);
      if (round >= 0) samples.set(`${size} ${name}`, [...(samples.get(`${size} ${name}`) ?? []), cpu]);
    }
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;
const rows = SIZES.map((size) => {
  const of = (name: Variant) => Number(median(samples.get(`${size} ${name}`) ?? []).toFixed(1));
  return { bytes: size, v2SealUs: of('v2 seal'), v1SealUs: of('v1 seal'), v2OpenUs: of('v2 open'), v1OpenUs: of('v1 open'), base64BothWaysUs: of('base64') };
});
console.log(JSON.stringify({ node: process.version, rounds: ROUNDS, rows }));
