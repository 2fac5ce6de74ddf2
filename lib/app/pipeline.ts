import type { Guard } from '../context/guard.js';
import type { Interceptor } from '../context/interceptor.js';
import { BadRequestException, ForbiddenException } from '../http/http-exception.js';
import { readJsonBodyThen } from '../http/json-body.js';
import { jsonAnswer, jsonTextAnswer, type Answer } from '../http/answer.js';
import { compileResponseSerializer } from '../http/response-serializer.js';
import type { Context } from '../context/request-context.js';
import type { Schema } from '../routing/route.js';
import { arrayQueryKeys, withListKeys } from '../http/query-arrays.js';
import type { QueryRecord } from '../http/query.js';

/**
 * Turns an error into the answer for it. Given to a pipeline, it makes the pipeline total: the
 * pipeline then never throws and its promise never rejects, and the continuations that already
 * exist on the way catch for it, so no promise is added just to catch.
 */
export type Recover = (error: unknown) => Answer;

/**
 * A route ready to serve: the whole pipeline in one function. Without `recover`, errors are
 * thrown or rejected to the caller (middleware sees them); with it, they become its answers.
 */
export type RoutePipeline = (ctx: Context, recover?: Recover) => Answer | Promise<Answer>;

type Stage = (ctx: Context, recover: Recover | undefined) => Answer | Promise<Answer>;

/** A promise of the pipeline, recovered when there is a recover (one reaction, only on the async paths). */
function settle(outcome: Promise<Answer>, recover: Recover | undefined): Promise<Answer> {
  return recover === undefined ? outcome : outcome.then(undefined, recover);
}

function rethrow(error: unknown): never {
  throw error;
}

/**
 * What a pipeline is built from.
 *
 * @example
 * compilePipeline({ name: 'Health.check', handler: () => 'ok', status: 200, response: undefined, body: undefined, query: undefined, bodyLimit: 1024, guards: [], interceptors: [] });
 */
export interface PipelineSpec {
  /** `Controller.route`, for the log line of a result the response schema refuses. */
  readonly name: string;
  readonly handler: (ctx: Context) => unknown;
  readonly status: number;
  /** With it, results are written by its compiled serialiser (undeclared fields stripped). */
  readonly response: Schema | undefined;
  readonly body: Schema | undefined;
  readonly query: Schema | undefined;
  readonly bodyLimit: number;
  readonly guards: readonly Guard[];
  readonly interceptors: readonly Interceptor[];
}

/**
 * Validates synchronously, the common case, without the promise `safeParseAsync` costs; a
 * schema with async parts (an async refinement or transform) makes zod throw its async error,
 * and only then is the async parse used. Decided per schema once: a schema that needed async
 * keeps parsing async.
 */
const needsAsync = new WeakSet<Schema>();

/** zod's "this schema is async" error, recognised by class name or message (a bundler may rename the class). */
function isZodAsyncError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.constructor.name === '$ZodAsyncError' || error.message.startsWith('Encountered Promise during synchronous parse');
}
function parseBody(schema: Schema, raw: unknown): ReturnType<Schema['safeParse']> | Promise<ReturnType<Schema['safeParse']>> {
  if (!needsAsync.has(schema)) {
    try {
      return schema.safeParse(raw);
    } catch (error) {
      if (!isZodAsyncError(error)) throw error;
      needsAsync.add(schema);
    }
  }
  return schema.safeParseAsync(raw);
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as { then?: unknown } | null)?.then === 'function';
}

function validationFailed(where: 'body' | 'query', issues: readonly unknown[]): BadRequestException {
  return new BadRequestException(where === 'body' ? 'Request body failed validation.' : 'Query failed validation.', {
    issues,
  });
}

/**
 * Composes a route's pipeline once, at boot: guards (in order) -> body and query validation ->
 * interceptors around the handler -> result to response. Each stage exists only when the route
 * needs it, so a route with no guards, schemas or interceptors runs its handler and nothing else,
 * and a synchronous handler allocates no promise. Errors propagate to the caller, or become
 * answers through `recover` when one is given.
 *
 * @example
 * const run = compilePipeline(spec);
 * const outcome = await run(ctx, (error) => errorAnswer(error, logger));
 */
export function compilePipeline(spec: PipelineSpec): RoutePipeline {
  const { status, handler } = spec;
  const serialize = spec.response === undefined ? undefined : compileResponseSerializer(spec.response, spec.name);
  const finish =
    serialize === undefined
      ? (result: unknown): Answer => (result instanceof Response ? result : jsonAnswer(status, result))
      : // `undefined` stays 204 (see RouteOptions.status); a mismatch throws to the app's 500.
        (result: unknown): Answer => (result instanceof Response ? result : result === undefined ? jsonAnswer(status, undefined) : jsonTextAnswer(status, serialize(result)));

  let invoke: (ctx: Context) => unknown = handler;
  if (spec.interceptors.length > 0) {
    invoke = spec.interceptors.reduceRight<(ctx: Context) => Promise<unknown>>(
      (next, interceptor) => async (ctx) => interceptor.intercept(ctx, () => next(ctx)),
      async (ctx) => handler(ctx),
    );
  }

  const respond: Stage = (ctx, recover) => {
    const result = invoke(ctx);
    return isPromiseLike(result) ? settle(Promise.resolve(result).then(finish), recover) : finish(result);
  };

  const { body: bodySchema, query: querySchema, bodyLimit } = spec;
  let prepared: Stage = respond;
  if (querySchema) {
    const next = prepared;
    // Keys the schema reads as lists, found once: `?tag=a` must reach `z.array(...)` as ['a'].
    const listKeys = arrayQueryKeys(querySchema);
    prepared = (ctx, recover) => {
      const parsed = querySchema.safeParse(listKeys.size === 0 ? ctx.query : withListKeys(ctx.query as QueryRecord, listKeys));
      if (!parsed.success) throw validationFailed('query', parsed.error.issues);
      ctx.query = parsed.data;
      return next(ctx, recover);
    };
  }
  if (bodySchema) {
    const next = prepared;
    const accept = (ctx: Context, parsed: ReturnType<Schema['safeParse']>, recover: Recover | undefined): Answer | Promise<Answer> => {
      if (!parsed.success) throw validationFailed('body', parsed.error.issues);
      ctx.body = parsed.data;
      return next(ctx, recover);
    };
    // No promise of our own on this path: parsing, validation (synchronous unless the schema is
    // async) and a synchronous handler run in the body's one continuation, which the Node
    // adapter calls as the body ends; a failure there goes to `recover` in the same call.
    prepared = (ctx, recover) =>
      readJsonBodyThen(
        ctx.incoming,
        bodyLimit,
        (raw) => {
          const result = parseBody(bodySchema, raw);
          return result instanceof Promise ? settle(result.then((parsed) => accept(ctx, parsed, recover)), recover) : accept(ctx, result, recover);
        },
        recover ?? rethrow,
      );
  }

  const guards = spec.guards;
  let guarded = prepared;
  if (guards.length > 0) {
    // A guard that returns anything but `true` denies: fail closed on a sloppy guard.
    const finishGuardsAsync = async (pending: PromiseLike<boolean>, from: number, ctx: Context): Promise<Answer> => {
      if ((await pending) !== true) throw new ForbiddenException();
      for (let i = from; i < guards.length; i++) {
        if ((await (guards[i] as Guard).canActivate(ctx)) !== true) throw new ForbiddenException();
      }
      // The rest runs inside this async function, whose rejection `settle` recovers.
      return prepared(ctx, undefined);
    };
    // Synchronous guards (a cached token check, a role check) run without allocating a promise.
    guarded = (ctx, recover) => {
      for (let i = 0; i < guards.length; i++) {
        const allowed = (guards[i] as Guard).canActivate(ctx);
        if (isPromiseLike(allowed)) return settle(finishGuardsAsync(allowed, i + 1, ctx), recover);
        if (allowed !== true) throw new ForbiddenException();
      }
      return prepared(ctx, recover);
    };
  }
  const run = guarded;
  return (ctx, recover) => {
    if (recover === undefined) return run(ctx, undefined);
    try {
      return run(ctx, recover);
    } catch (error) {
      return recover(error);
    }
  };
}
