// Measures what password hashing costs the rest of a Node server: per-hash time for each
// backend, and how long the event loop stalls while 10 hashes run concurrently (as when ten
// users sign in at once). Run: npx tsx bench/password-event-loop.ts
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createPasswordHasher, type Argon2PasswordHasher, type PasswordHasherBackend } from '../lib/auth/credentials/password/index.js';

const CONCURRENT = 10;
const SEQUENTIAL = 10;
const ROUNDS = 3;

interface Row {
  backend: string;
  perHashMs: number;
  wallMs: number;
  maxDelayMs: number;
  p99DelayMs: number;
  maxGapMs: number;
  blockedMs: number;
}

// A gap longer than this between 1 ms ticks counts as time other requests could not run.
const BLOCKED_GAP_MS = 5;

async function measure(label: string, hasher: Argon2PasswordHasher): Promise<Row> {
  // Warm up: load WASM / addon / threads so the first-call cost is not counted.
  await hasher.verify('warm-up', await hasher.hash('warm-up'));

  let started = performance.now();
  for (let i = 0; i < SEQUENTIAL; i++) await hasher.hash(`sequential ${i}`);
  const perHashMs = (performance.now() - started) / SEQUENTIAL;

  const histogram = monitorEventLoopDelay({ resolution: 1 });
  // A second, independent probe: the longest gap between 1 ms ticks, i.e. the longest time
  // another request would have waited for its turn.
  let maxGapMs = 0;
  let blockedMs = 0;
  let lastTick = performance.now();
  const probe = setInterval(() => {
    const now = performance.now();
    const gap = now - lastTick;
    maxGapMs = Math.max(maxGapMs, gap);
    if (gap > BLOCKED_GAP_MS) blockedMs += gap;
    lastTick = now;
  }, 1);
  histogram.enable();
  await new Promise((resolve) => setTimeout(resolve, 20));
  lastTick = performance.now();
  maxGapMs = 0;
  blockedMs = 0;
  histogram.reset();
  started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => hasher.hash(`concurrent ${i}`)));
  const wallMs = performance.now() - started;
  // Let the probe observe the tail end of the last stall.
  await new Promise((resolve) => setTimeout(resolve, 20));
  histogram.disable();
  clearInterval(probe);

  return {
    backend: label,
    perHashMs,
    wallMs,
    maxDelayMs: histogram.max / 1e6,
    p99DelayMs: histogram.percentile(99) / 1e6,
    maxGapMs,
    blockedMs,
  };
}

const backends: Array<{ label: string; backend: PasswordHasherBackend; workers?: number }> = [
  { label: 'wasm (main thread)', backend: 'wasm' },
  { label: 'native (@node-rs/argon2)', backend: 'native' },
  { label: 'worker pool (1 thread)', backend: 'worker', workers: 1 },
  { label: 'worker pool (2 threads)', backend: 'worker', workers: 2 },
];

const rows: Row[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  for (const { label, backend, workers } of backends) {
    const hasher = await createPasswordHasher({ backend, ...(workers === undefined ? {} : { workers }) });
    try {
      rows.push({ ...(await measure(label, hasher)), backend: `${label} #${round}` });
    } finally {
      await hasher.close();
    }
  }
}

const format = (value: number): string => value.toFixed(1).padStart(9);
console.log(`Argon2id m=19456 t=2 p=1; ${SEQUENTIAL} sequential hashes, then ${CONCURRENT} concurrent; times in ms`);
console.log(`lag = perf_hooks.monitorEventLoopDelay (1 ms resolution); gap = longest pause between 1 ms ticks;`);
console.log(`blocked = sum of tick gaps > ${BLOCKED_GAP_MS} ms during the ${CONCURRENT} concurrent hashes`);
console.log(`${'backend'.padEnd(32)}${'per hash'.padStart(9)}${'wall x10'.padStart(9)}${'max lag'.padStart(9)}${'p99 lag'.padStart(9)}${'max gap'.padStart(9)}${'blocked'.padStart(9)}`);
for (const row of rows) {
  console.log(
    `${row.backend.padEnd(32)}${format(row.perHashMs)}${format(row.wallMs)}${format(row.maxDelayMs)}${format(row.p99DelayMs)}${format(row.maxGapMs)}${format(row.blockedMs)}`,
  );
}
