// `npx tsx bench/validators-inprocess.ts`: the create route of `npm run bench:validators` (body and
// response schemas in zod, valibot or ArkType) served in process through `app.fetch`, no sockets,
// so the validator's share is not lost in the HTTP server's cost. Rounds alternate the three apps;
// reports the median µs per request over rounds, and each library's ratio to zod (issue 39).
import { createApp } from '../lib/index.js';
import { CREATE_ROUTE_SCHEMAS, validatorModule, type BenchValidator } from './servers/tessera-validators.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20_000);
const body = JSON.stringify({ title: 'Hello', body: 'World' });
const validators = Object.keys(CREATE_ROUTE_SCHEMAS) as BenchValidator[];

const apps = await Promise.all(validators.map(async (validator) => ({ validator, app: await createApp(validatorModule(validator)) })));

async function once(app: (typeof apps)[number]['app']): Promise<void> {
  const response = await app.fetch(new Request('http://localhost/posts', { method: 'POST', body, headers: { 'content-type': 'application/json' } }));
  if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
  await response.text();
}

// The three answer alike before anything is timed: a 201 with the post, a 400 for a missing title.
for (const { validator, app } of apps) {
  const bad = await app.fetch(new Request('http://localhost/posts', { method: 'POST', body: '{"body":"x"}', headers: { 'content-type': 'application/json' } }));
  if (bad.status !== 400) throw new Error(`${validator}: a missing title answered ${bad.status}`);
  for (let i = 0; i < 2_000; i++) await once(app);
}

const samples = new Map<BenchValidator, number[]>(validators.map((v) => [v, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (let k = 0; k < apps.length; k++) {
    const { validator, app } = apps[(k + round) % apps.length] as (typeof apps)[number];
    const start = process.cpuUsage();
    for (let i = 0; i < REQUESTS; i++) await once(app);
    const used = process.cpuUsage(start);
    samples.get(validator)?.push((used.user + used.system) / REQUESTS);
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const zod = median(samples.get('zod') ?? []);
console.log(`create route in process (app.fetch), body + response schema, ${ROUNDS} rounds x ${REQUESTS} requests, CPU µs per request (median, min-max):`);
for (const validator of validators) {
  const xs = samples.get(validator) ?? [];
  console.log(`  ${validator.padEnd(8)} ${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)})  ${(median(xs) / zod).toFixed(2)}x zod`);
}
