/**
 * The compiled response serialiser against JSON.stringify (no validation, no stripping) and
 * JSON.stringify(schema.parse(x)) (what it replaces), on the bench's post and on a 40-field object.
 * Run: npx tsx bench/response-serializer.ts
 */
import { z } from 'zod';
import { compileResponseSerializer } from '../lib/schema/response-serializer.js';

const ROUNDS = 7;
const ITERATIONS = 200_000;

const Post = z.object({ id: z.string(), title: z.string(), body: z.string(), createdAt: z.string(), updatedAt: z.string() });
const post = { id: '3f1c9e2a-0b7d-4d8e-9a4c-2f6b8e1d0c5a', title: 'Hello', body: 'A first post.', createdAt: '2026-11-22T10:00:00.000Z', updatedAt: '2026-11-22T10:00:00.000Z' };

const wideShape: Record<string, z.ZodType> = {};
const wide: Record<string, unknown> = {};
for (let i = 0; i < 40; i++) {
  const kind = i % 4;
  wideShape[`field${i}`] = kind === 0 ? z.string() : kind === 1 ? z.number() : kind === 2 ? z.boolean() : z.array(z.string());
  wide[`field${i}`] = kind === 0 ? `value number ${i}` : kind === 1 ? i * 1.5 : kind === 2 ? i % 3 === 0 : ['a', 'b', `c${i}`];
}
const Wide = z.object(wideShape);
const listOfPosts = Array.from({ length: 20 }, (_, i) => ({ ...post, id: `${i}`, passwordHash: 'secret' }));
const Posts = z.array(Post);

const cases = [
  { name: 'post', schema: Post, value: post },
  { name: 'post with an extra field', schema: Post, value: { ...post, passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$abc' } },
  { name: '40 fields', schema: Wide, value: wide },
  { name: '20 posts', schema: Posts, value: listOfPosts },
];

function time(run: () => unknown, iterations: number): number {
  const start = performance.now();
  for (let i = 0; i < iterations; i++) run();
  return ((performance.now() - start) * 1e6) / iterations;
}
const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

const rows = [];
for (const c of cases) {
  const serialize = compileResponseSerializer(c.schema);
  const iterations = c.name === '20 posts' ? ITERATIONS / 10 : ITERATIONS;
  const runs = {
    compiled: () => serialize(c.value),
    'JSON.stringify': () => JSON.stringify(c.value),
    'JSON.stringify(parse)': () => JSON.stringify(c.schema.parse(c.value)),
  };
  const samples: Record<string, number[]> = { compiled: [], 'JSON.stringify': [], 'JSON.stringify(parse)': [] };
  for (const run of Object.values(runs)) time(run, iterations / 4);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(runs)) samples[name]?.push(time(run, iterations));
  }
  const stringify = median(samples['JSON.stringify'] ?? []);
  rows.push({
    case: c.name,
    'compiled ns': median(samples.compiled ?? []).toFixed(0),
    'JSON.stringify ns': stringify.toFixed(0),
    'stringify(parse) ns': median(samples['JSON.stringify(parse)'] ?? []).toFixed(0),
    'compiled / stringify': (median(samples.compiled ?? []) / stringify).toFixed(2),
  });
}
console.log(`Response serialisation, ${ROUNDS} rounds (median), Node ${process.version}`);
console.table(rows);
