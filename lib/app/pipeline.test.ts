import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../logging/json-logger.js';
import { Context } from '../context/request-context.js';
import type { Guard } from '../context/guard.js';
import type { Interceptor } from '../context/interceptor.js';
import { incomingFromRequest } from '../http/fetch-incoming.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { Answer, PlainAnswer } from '../http/answer.js';
import { compilePipeline, type PipelineSpec } from './pipeline.js';
import { compileAnswerStep } from './answer-step.js';
import type { Recover } from './reply.js';
import type { Schema } from '../routing/route.js';

const LIMIT = 64;

/** The route fields and pipeline parts a test varies; everything else is a plain GET route. */
interface Parts {
  readonly handler: (ctx: Context) => unknown;
  readonly status: number;
  readonly response: Schema | undefined;
  readonly body: Schema | undefined;
  readonly query: Schema | undefined;
  readonly guards: readonly Guard[];
  readonly interceptors: readonly Interceptor[];
}

function spec(overrides: Partial<Parts>): PipelineSpec {
  const parts: Parts = { handler: () => ({ ok: true }), status: 200, response: undefined, body: undefined, query: undefined, guards: [], interceptors: [], ...overrides };
  const route = { controller: 'Test', name: 'route', status: parts.status, body: parts.body, query: parts.query, response: parts.response };
  return {
    route,
    handler: parts.handler,
    bodyLimit: LIMIT,
    answerStep: compileAnswerStep(route, true, parts.interceptors.length > 0),
    guards: parts.guards,
    interceptors: parts.interceptors,
  };
}

function context(init: { body?: string; contentType?: string; query?: string } = {}): Context {
  const headers: Record<string, string> = {};
  if (init.contentType !== undefined) headers['content-type'] = init.contentType;
  const request = new Request(`http://localhost/x${init.query ?? ''}`, init.body === undefined ? {} : { method: 'POST', headers, body: init.body });
  return new Context(incomingFromRequest(request), {}, undefined, LIMIT, silentLogger);
}

/** The answer a recover gives: 599 and the error's class and message, so each test sees which error arrived. */
const recover: Recover = (error) => ({ status: 599, headers: {}, body: error instanceof Error ? `${error.constructor.name}: ${error.message}` : String(error) });

/** Runs the pipeline; fails the test if it throws, or replies more than once (checked a little after the first reply). */
async function answer(overrides: Partial<Parts>, ctx = context(), recoverWith: Recover = recover): Promise<PlainAnswer> {
  const replies: Answer[] = [];
  let first!: (answer: Answer) => void;
  const replied = new Promise<Answer>((resolve) => (first = resolve));
  try {
    compilePipeline(spec(overrides), recoverWith)(ctx, (reply) => {
      replies.push(reply);
      first(reply);
    });
  } catch (error) {
    throw new Error(`the pipeline threw instead of replying: ${String(error)}`);
  }
  const result = await replied;
  await new Promise((r) => setTimeout(r, 5));
  expect(replies.length, 'the pipeline replied more than once').toBe(1);
  return result as PlainAnswer;
}

const JSON_BODY = { contentType: 'application/json' };
const deny: Guard = { canActivate: () => false };
const denyLater: Guard = { canActivate: async () => false };
const failLater: Guard = { canActivate: async () => Promise.reject(new Error('guard broke')) };
const asyncSchema = z.object({ name: z.string() }).refine(async (v) => v.name !== 'taken', { message: 'name taken' });

describe('compilePipeline with recover: every failure becomes an answer, none is thrown or rejected', () => {
  it('recovers a synchronous handler that throws', async () => {
    const res = await answer({ handler: () => { throw new Error('sync boom'); } });
    expect(res.body).toBe('Error: sync boom');
  });

  it('recovers an async handler that rejects', async () => {
    const res = await answer({ handler: async () => Promise.reject(new Error('async boom')) });
    expect(res.body).toBe('Error: async boom');
  });

  it('recovers a body that is not JSON-typed (415, refused before reading)', async () => {
    const res = await answer({ body: z.unknown() }, context({ body: '{}', contentType: 'text/plain' }));
    expect(res.body).toContain('UnsupportedMediaTypeException');
  });

  it('recovers a body over the limit (413)', async () => {
    const res = await answer({ body: z.unknown() }, context({ ...JSON_BODY, body: JSON.stringify({ text: 'x'.repeat(LIMIT) }) }));
    expect(res.body).toContain('PayloadTooLargeException');
  });

  it('recovers a body that is not JSON (400)', async () => {
    const res = await answer({ body: z.unknown() }, context({ ...JSON_BODY, body: '{nope' }));
    expect(res.body).toBe('BadRequestException: Request body is not valid JSON.');
  });

  it('recovers a body a synchronous schema refuses', async () => {
    const res = await answer({ body: z.object({ name: z.string() }) }, context({ ...JSON_BODY, body: '{"name":1}' }));
    expect(res.body).toBe('BadRequestException: Request body failed validation.');
  });

  it('recovers a body an async schema refuses', async () => {
    const res = await answer({ body: asyncSchema }, context({ ...JSON_BODY, body: '{"name":"taken"}' }));
    expect(res.body).toBe('BadRequestException: Request body failed validation.');
  });

  it('recovers a handler that throws after the body was read', async () => {
    const res = await answer({ body: z.unknown(), handler: () => { throw new Error('after body'); } }, context({ ...JSON_BODY, body: '{}' }));
    expect(res.body).toBe('Error: after body');
  });

  it('recovers a query the schema refuses', async () => {
    const res = await answer({ query: z.object({ page: z.coerce.number().int() }) }, context({ query: '?page=abc' }));
    expect(res.body).toBe('BadRequestException: Query failed validation.');
  });

  it('recovers a synchronous guard that denies', async () => {
    expect((await answer({ guards: [deny] })).body).toContain('ForbiddenException');
  });

  it('recovers an async guard that denies', async () => {
    expect((await answer({ guards: [denyLater] })).body).toContain('ForbiddenException');
  });

  it('recovers an async guard that rejects', async () => {
    expect((await answer({ guards: [failLater] })).body).toBe('Error: guard broke');
  });

  it('recovers a synchronous result the response schema refuses', async () => {
    const res = await answer({ response: z.object({ id: z.string() }), handler: () => ({ id: 1 }) });
    expect(res.body).toContain('ResponseMismatchError');
  });

  it('recovers an async result the response schema refuses', async () => {
    const res = await answer({ response: z.object({ id: z.string() }), handler: async () => ({ id: 1 }) });
    expect(res.body).toContain('ResponseMismatchError');
  });

  it('recovers an interceptor that throws', async () => {
    const broken: Interceptor = { intercept: () => { throw new Error('interceptor broke'); } };
    expect((await answer({ interceptors: [broken] })).body).toBe('Error: interceptor broke');
  });

  it('still answers normally when nothing fails, body route included', async () => {
    const res = await answer({ body: z.object({ name: z.string() }), handler: (ctx) => ctx.body, status: 201 }, context({ ...JSON_BODY, body: '{"name":"ada"}' }));
    expect(res).toEqual({ status: 201, headers: { 'content-type': 'application/json' }, body: '{"name":"ada"}' });
  });
});

describe('compilePipeline: one reply, through whatever recover gives', () => {
  it('replies synchronously for a synchronous route', () => {
    let replied: Answer | undefined;
    compilePipeline(spec({}), recover)(context(), (reply) => (replied = reply));
    expect(replied, 'a synchronous handler waited for a promise').toEqual({ status: 200, headers: { 'content-type': 'application/json' }, body: '{"ok":true}' });
  });

  it('waits for an asynchronous recover (an async onError) and replies with what it gives', async () => {
    const later: Recover = async (error) => ({ status: 598, headers: {}, body: `later: ${(error as Error).message}` });
    const res = await answer({ guards: [deny] }, context(), later);
    expect(res.body).toBe('later: Forbidden');
  });
});

describe('compilePipeline over an incoming that calls back later', () => {
  it('runs validation and a synchronous handler inside the body callback, and replies from it', () => {
    let deliver: ((bytes: Uint8Array) => void) | undefined;
    const base = incomingFromRequest(new Request('http://localhost/x', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }));
    const incoming: IncomingRequest = {
      ...base,
      header: (name) => base.header(name),
      readBody: (_limit, onBytes) => {
        deliver = onBytes;
      },
    };
    let handled = 0;
    const replies: Answer[] = [];
    const run = compilePipeline(spec({ body: z.object({ n: z.number() }), handler: (ctx) => ({ twice: (ctx.body as { n: number }).n * 2, handled: ++handled }) }), recover);
    run(new Context(incoming, {}, undefined, LIMIT, silentLogger), (reply) => replies.push(reply));
    expect(handled, 'nothing runs before the body arrives').toBe(0);
    deliver?.(new TextEncoder().encode('{"n":21}'));
    expect(handled, 'the handler ran inside the callback').toBe(1);
    expect(replies.map((r) => (r as PlainAnswer).body), 'the reply came inside the callback').toEqual(['{"twice":42,"handled":1}']);
  });
});
