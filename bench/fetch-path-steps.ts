// What one request costs on the fetch path, step by step, in process (no sockets): the request
// view, the dispatch (context, router, pipeline, handler, JSON answer), the web Response, and
// app.fetch end to end, against a hand-written fetch handler doing the same work. Runs on any
// runtime that runs TypeScript or a bundle of it:
//   node_modules/.bin/bun bench/fetch-path-steps.ts
//   node_modules/.bin/deno run -A bench/fetch-path-steps.ts
//   node --import ./scripts/register-swc.mjs bench/fetch-path-steps.ts
// Medians of 5 runs of 200 000 requests each (after a warm-up), in µs per request. The socket,
// HTTP parsing and writing (the runtime's own share, most of a request's CPU) are not in these
// figures: `npm run bench` measures whole requests.
import { z } from 'zod';
import { createApp, defineController, defineModule, get, post, type Answer } from '../lib/index.js';
import { incomingFromRequest, toResponse } from '../lib/internal/request-path.js';

const CreatePost = z.object({ title: z.string().min(1), body: z.string().default('') });
let created = 0;
const newPost = (input: z.output<typeof CreatePost>) => ({ id: String(++created), ...input, createdAt: new Date().toISOString() });
const controller = defineController({
  name: 'Bench',
  routes: () => ({
    hello: get('/hello/:name', (ctx) => ({ message: `Hello, ${ctx.params.name}!` })),
    create: post('/posts', { body: CreatePost, status: 201 }, (ctx) => newPost(ctx.body)),
  }),
});
const app = await createApp(defineModule({ name: 'BenchModule', controllers: [controller] }));

/** The same two routes by hand: what a fetch handler costs with no framework. */
async function handWritten(request: Request): Promise<Response> {
  const url = request.url;
  const path = url.slice(url.indexOf('/', url.indexOf('://') + 3));
  if (request.method === 'GET' && path.startsWith('/hello/')) return Response.json({ message: `Hello, ${path.slice(7)}!` });
  const parsed = CreatePost.safeParse(await request.json());
  if (!parsed.success) return Response.json({ issues: parsed.error.issues }, { status: 400 });
  return Response.json(newPost(parsed.data), { status: 201 });
}

const BODY = JSON.stringify({ title: 'Hello', body: 'World' });
const helloRequest = () => new Request('http://127.0.0.1:3000/hello/bench');
const createRequest = () => new Request('http://127.0.0.1:3000/posts', { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': String(BODY.length) }, body: BODY });

const N = 200_000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

/** µs per call of `step` over requests made beforehand (their making is not counted). */
async function measure(make: () => Request, step: (request: Request) => unknown): Promise<number> {
  const runs: number[] = [];
  for (let run = 0; run < 6; run++) {
    const requests = Array.from({ length: N }, make);
    const started = performance.now();
    for (const request of requests) {
      const result = step(request);
      if (result instanceof Promise) await result;
    }
    if (run > 0) runs.push(((performance.now() - started) * 1000) / N);
  }
  return median(runs);
}

/** Dispatch alone: the answer as the app replies it, no Response made. */
function dispatch(request: Request): Answer | Promise<Answer> {
  let early: Answer | undefined;
  let settle: ((answer: Answer) => void) | undefined;
  app.handle(incomingFromRequest(request), (answer) => (settle === undefined ? (early = answer) : settle(answer)));
  return early ?? new Promise<Answer>((resolve) => (settle = resolve));
}

const rows: [string, number][] = [];
{
  const started = performance.now();
  for (let i = 0; i < N; i++) helloRequest();
  rows.push(['new Request (the runtime, for scale)', ((performance.now() - started) * 1000) / N]);
}
rows.push(['hello: request view (incomingFromRequest, path)', await measure(helloRequest, (request) => incomingFromRequest(request).path)]);
rows.push(['hello: dispatch (context, router, pipeline, handler, JSON answer)', await measure(helloRequest, dispatch)]);
const helloAnswer = (await dispatch(helloRequest())) as Answer;
rows.push(['hello: answer -> Response', await measure(helloRequest, () => toResponse(helloAnswer))]);
rows.push(['hello: app.fetch end to end', await measure(helloRequest, (request) => app.fetch(request))]);
rows.push(['hello: hand-written handler', await measure(helloRequest, handWritten)]);
rows.push(['create: dispatch (body read, JSON, zod, handler, answer)', await measure(createRequest, dispatch)]);
rows.push(['create: app.fetch end to end', await measure(createRequest, (request) => app.fetch(request))]);
rows.push(['create: hand-written handler (request.json, zod, Response.json)', await measure(createRequest, handWritten)]);

const runtime = 'Bun' in globalThis ? `Bun ${(globalThis as { Bun?: { version: string } }).Bun?.version}` : 'Deno' in globalThis ? `Deno ${(globalThis as { Deno?: { version: { deno: string } } }).Deno?.version.deno}` : `Node ${process.version}`;
console.log(`fetch path, step by step, ${runtime}: µs per request (median of 5 x ${N})`);
for (const [label, us] of rows) console.log(`${us.toFixed(2).padStart(7)}  ${label}`);
