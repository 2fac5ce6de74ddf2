import type { Guard } from '../context/guard.js';
import type { Interceptor } from '../context/interceptor.js';
import type { RouteInfo } from '../context/route-info.js';
import { ForbiddenException } from '../http/http-exception.js';
import { readJsonBody } from '../http/json-body.js';
import type { Answer } from '../http/answer.js';
import { compileSchemaParser } from '../schema/schema-parser.js';
import { isZodSchema } from '../schema/zod-schema.js';
import type { Context } from '../context/request-context.js';
import type { Schema } from '../routing/route.js';
import { compileQueryParser } from '../schema/query-arrays.js';
import type { ZodNode } from '../schema/zod-internals.js';
import type { AnswerStep } from './answer-step.js';
import { deliver, isPromiseLike, type Recover, type Reply } from './reply.js';
import { validation, whenSettled, type Fail } from './validation-stage.js';

/**
 * A route's pipeline: its stages (guards, validation, interceptors and handler, the answer step) in one function. It is
 * total: it never throws, and it calls `reply` exactly once, with the route's answer or with what
 * the app's {@link Recover} made of an error, possibly before it returns.
 */
export type RoutePipeline = (ctx: Context, reply: Reply) => void;

/**
 * What a pipeline is built from: the route's table entry (method, status, schemas, metadata) and
 * what only the pipeline needs beside it.
 *
 * @example
 * compilePipeline({ route, handler: () => 'ok', bodyLimit: 1024, answerStep: compileAnswerStep(route, true), guards: [], interceptors: [] }, recover);
 */
export interface PipelineSpec {
  readonly route: Pick<RouteInfo, 'body' | 'query'> & Partial<Pick<RouteInfo, 'paramsSchema' | 'params'>>;
  readonly handler: (ctx: Context) => unknown;
  readonly bodyLimit: number;
  /** The route's answer step (see compileAnswerStep): the one function that makes its answer from the handler's value. */
  readonly answerStep: AnswerStep;
  /** App, module, controller and route guards, in the order they run. */
  readonly guards: readonly Guard[];
  /** Outermost first. */
  readonly interceptors: readonly Interceptor[];
}

/**
 * Composes a route's pipeline once, at boot: guards (in order) -> the validation stage for the path
 * parameters, the body and the query -> interceptors around the handler -> the route's answer step. Each stage exists only when the route
 * needs it, so a route with no guards, schemas or interceptors runs its handler and nothing else,
 * and a synchronous handler allocates no promise. A JSON body is validated and handled inside
 * the adapter's body callback (as the body ends, on Node). Every stage hands its errors to
 * `recover` and the answer to the next stage or to `reply`; none throws.
 *
 * @example
 * const run = compilePipeline(spec, (error, ctx) => errorAnswer(error, logger));
 * run(ctx, (answer) => write(answer));
 */
export function compilePipeline(spec: PipelineSpec, recover: Recover): RoutePipeline {
  const { body: bodySchema, query: querySchema } = spec.route;
  const { handler, bodyLimit, guards, answerStep } = spec;
  const fail: Fail = (error, ctx, reply) => deliver(recover(error, ctx), reply);
  const finishAndReply = (result: unknown, ctx: Context, reply: Reply): void => whenSettled(answerStep, result, ctx, reply, replyWith, fail);

  let invoke: (ctx: Context) => unknown = handler;
  if (spec.interceptors.length > 0) {
    invoke = spec.interceptors.reduceRight<(ctx: Context) => Promise<unknown>>(
      (next, interceptor) => async (ctx) => interceptor.intercept(ctx, () => next(ctx)),
      async (ctx) => handler(ctx),
    );
  }

  let stage: RoutePipeline = (ctx, reply) => {
    let result: unknown;
    try {
      result = invoke(ctx);
    } catch (error) {
      fail(error, ctx, reply);
      return;
    }
    if (!isPromiseLike(result)) {
      finishAndReply(result, ctx, reply);
      return;
    }
    Promise.resolve(result).then(
      (value) => finishAndReply(value, ctx, reply),
      (error: unknown) => fail(error, ctx, reply),
    );
  };

  // Query list coercion is part of the query's parser (compileQueryParser), before the one validation stage.
  if (querySchema !== undefined) {
    const validateQuery = validation('query', compileQueryParser(querySchema), storeQuery, stage, fail);
    stage = (ctx, reply) => validateQuery(ctx.query, ctx, reply);
  }

  if (bodySchema !== undefined) {
    const validateBody = validation('body', compileSchemaParser(bodySchema), storeBody, stage, fail);
    // No promise of our own: parsing, validation (synchronous unless the schema is async) and a
    // synchronous handler run inside the body callback, which the Node adapter calls as the body ends.
    stage = (ctx, reply) => {
      const onValue = (raw: unknown): void => validateBody(raw, ctx, reply);
      const onError = (error: unknown): void => fail(error, ctx, reply);
      const telemetry = ctx.telemetry;
      // On Node the body ends in a socket event, outside the request's trace context: bound, the
      // handler that runs in it still sees its span as the active one.
      if (telemetry === undefined) readJsonBody(ctx.incoming, bodyLimit, onValue, onError);
      else readJsonBody(ctx.incoming, bodyLimit, telemetry.bind(onValue), telemetry.bind(onError));
    };
  }

  if (spec.route.paramsSchema !== undefined) stage = paramsStage(spec.route.paramsSchema, spec.route.params, stage, fail);

  if (guards.length > 0) {
    const next = stage;
    // A guard that returns anything but `true` denies: fail closed on a sloppy guard.
    const finishGuardsAsync = async (pending: PromiseLike<boolean>, from: number, ctx: Context): Promise<void> => {
      if ((await pending) !== true) throw new ForbiddenException();
      for (let i = from; i < guards.length; i++) {
        if ((await (guards[i] as Guard).canActivate(ctx)) !== true) throw new ForbiddenException();
      }
    };
    // Synchronous guards (a cached token check, a role check) run without allocating a promise.
    stage = (ctx, reply) => {
      for (let i = 0; i < guards.length; i++) {
        let allowed: boolean | PromiseLike<boolean>;
        try {
          allowed = (guards[i] as Guard).canActivate(ctx);
        } catch (error) {
          fail(error, ctx, reply);
          return;
        }
        if (isPromiseLike(allowed)) {
          finishGuardsAsync(allowed, i + 1, ctx).then(
            () => next(ctx, reply),
            (error: unknown) => fail(error, ctx, reply),
          );
          return;
        }
        if (allowed !== true) {
          fail(new ForbiddenException(), ctx, reply);
          return;
        }
      }
      next(ctx, reply);
    };
  }
  return stage;
}

/**
 * Parses the path parameters with the route's `params` schema (the route table checked that a
 * zod object's keys are parameters of the path): the handler sees the schema's output in
 * `ctx.params`, and the parameters it does not name as the strings they were. A zod object is
 * given exactly the keys it names, so a strict object does not refuse a prefix's parameter it
 * leaves alone; another library's schema, whose keys Tessera cannot read, is given them all.
 */
function paramsStage(schema: Schema, pathNames: readonly string[] | undefined, next: RoutePipeline, fail: Fail): RoutePipeline {
  const keys = isZodSchema(schema) ? Object.keys((schema as unknown as ZodNode)._zod.def.shape ?? {}) : undefined;
  // Most schemas name every parameter: the router's record is then the input, and the output the whole.
  const covers = keys === undefined || (pathNames !== undefined && pathNames.every((name) => keys.includes(name)));
  // ctx.params still holds the router's strings until the parse is accepted. Typed by the route's
  // handler (ParsedParams); the context's field holds whatever the route parsed.
  const store = (ctx: Context, data: unknown): void => {
    ctx.params = (covers && keys !== undefined ? data : { ...ctx.params, ...(data as object) }) as Readonly<Record<string, string>>;
  };
  // An async refinement (a lookup) is allowed here, as in a body or query schema.
  const validate = validation('params', compileSchemaParser(schema), store, next, fail);
  if (covers) return (ctx, reply) => validate(ctx.params, ctx, reply);
  return (ctx, reply) => {
    const raw = ctx.params;
    const picked: Record<string, string> = {};
    for (const key of keys ?? []) if (key in raw) picked[key] = raw[key] as string;
    validate(picked, ctx, reply);
  };
}

function storeQuery(ctx: Context, data: unknown): void {
  ctx.query = data;
}

function storeBody(ctx: Context, data: unknown): void {
  ctx.body = data;
}

/** Hands a settled answer to the reply (`whenSettled`'s last step for the answer step). */
function replyWith(answer: Answer, _ctx: Context, reply: Reply): void {
  reply(answer);
}
