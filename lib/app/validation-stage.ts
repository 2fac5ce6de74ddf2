import type { Context } from '../context/request-context.js';
import { BadRequestException } from '../http/http-exception.js';
import type { SchemaParser, SchemaParseResult } from '../schema/schema-parser.js';
import type { Reply } from './reply.js';

/** Where a request's value comes from: each has its own 400 title. */
export type ValidatedPart = 'body' | 'query' | 'params';

const FAILED: Readonly<Record<ValidatedPart, string>> = { body: 'Request body failed validation.', query: 'Query failed validation.', params: 'Path parameters failed validation.' };

/** A stage's way out for an error: the app's recover, then the reply. */
export type Fail = (error: unknown, ctx: Context, reply: Reply) => void;

/** Continues a request's pipeline: the next stage. */
export type Next = (ctx: Context, reply: Reply) => void;

/**
 * The one validation stage, for body, params and query alike: parses `input` with the slot's
 * parser (zod or any Standard Schema; synchronous, or a promise when the schema is async), then
 * either `store`s the output on the context and runs `next`, or fails with the 400 problem
 * naming the slot and carrying the issues. A throw or a rejection of the parse goes to `fail`
 * (the app's 500), as in every stage. Nothing here knows which library or slot it serves.
 *
 * @example
 * const validate = validation('query', compileQueryParser(schema), (ctx, data) => (ctx.query = data), next, fail);
 * stage = (ctx, reply) => validate(ctx.query, ctx, reply);
 */
export function validation(part: ValidatedPart, parse: SchemaParser, store: (ctx: Context, data: unknown) => void, next: Next, fail: Fail): (input: unknown, ctx: Context, reply: Reply) => void {
  const accept = (parsed: SchemaParseResult, ctx: Context, reply: Reply): void => {
    if (!parsed.success) {
      fail(new BadRequestException(FAILED[part], { issues: parsed.error.issues }), ctx, reply);
      return;
    }
    store(ctx, parsed.data);
    next(ctx, reply);
  };
  return (input, ctx, reply) => whenSettled(parse, input, ctx, reply, accept, fail);
}

/**
 * Runs one step of a pipeline stage that may be asynchronous (a schema parse, the answer step)
 * and hands its value to `accept`: in the same turn when the step is synchronous (no promise of
 * our own on the fast path), after it when it returns a promise; a throw or a rejection goes to
 * `fail`.
 *
 * @example
 * whenSettled(toAnswer, value, ctx, reply, (answer, _ctx, reply) => reply(answer), fail);
 */
export function whenSettled<I, O>(step: (input: I) => O | Promise<O>, input: I, ctx: Context, reply: Reply, accept: (value: O, ctx: Context, reply: Reply) => void, fail: Fail): void {
  let value: O | Promise<O>;
  try {
    value = step(input);
  } catch (error) {
    fail(error, ctx, reply);
    return;
  }
  if (value instanceof Promise) {
    value.then(
      (settled) => accept(settled, ctx, reply),
      (error: unknown) => fail(error, ctx, reply),
    );
  } else {
    accept(value, ctx, reply);
  }
}
