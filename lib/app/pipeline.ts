import type { Guard } from '../context/guard.js';
import type { Interceptor } from '../context/interceptor.js';
import type { RouteInfo } from '../context/route-info.js';
import { BadRequestException, ForbiddenException } from '../http/http-exception.js';
import { readJsonBody } from '../http/json-body.js';
import { jsonAnswer, jsonTextAnswer, type Answer } from '../http/answer.js';
import { compileResponseWriter } from '../schema/response-writer.js';
import { compileSchemaParser, type SchemaParseResult } from '../schema/schema-parser.js';
import { isZodSchema, type ZodSchema } from '../schema/zod-schema.js';
import type { Context } from '../context/request-context.js';
import type { Schema } from '../routing/route.js';
import { arrayQueryKeys, withListKeys, withSingleValuesListed } from '../schema/query-arrays.js';
import type { ZodNode } from '../schema/zod-internals.js';
import type { QueryRecord } from '../http/query.js';
import { deliver, isPromiseLike, type Recover, type Reply } from './reply.js';

/**
 * A route ready to serve: guards, validation, interceptors and handler in one function. It is
 * total: it never throws, and it calls `reply` exactly once, with the route's answer or with what
 * the app's {@link Recover} made of an error, possibly before it returns.
 */
export type RoutePipeline = (ctx: Context, reply: Reply) => void;

/**
 * What a pipeline is built from: the route's table entry (method, status, schemas, metadata) and
 * what only the pipeline needs beside it.
 *
 * @example
 * compilePipeline({ route, handler: () => 'ok', bodyLimit: 1024, serializeResponse: true, guards: [], interceptors: [] }, recover);
 */
export interface PipelineSpec {
  readonly route: Pick<RouteInfo, 'controller' | 'name' | 'status' | 'body' | 'query' | 'response'> & Partial<Pick<RouteInfo, 'webSocket' | 'paramsSchema' | 'params'>>;
  readonly handler: (ctx: Context) => unknown;
  readonly bodyLimit: number;
  /** Results are written by the response schema's compiled serialiser (undeclared fields stripped). */
  readonly serializeResponse: boolean;
  /** App, module, controller and route guards, in the order they run. */
  readonly guards: readonly Guard[];
  /** Outermost first. */
  readonly interceptors: readonly Interceptor[];
}

const FAILED = { body: 'Request body failed validation.', query: 'Query failed validation.', params: 'Path parameters failed validation.' } as const;

function validationFailed(where: keyof typeof FAILED, issues: readonly unknown[]): BadRequestException {
  return new BadRequestException(FAILED[where], { issues });
}

/**
 * Composes a route's pipeline once, at boot: guards (in order) -> path parameter, body and query validation ->
 * interceptors around the handler -> result to answer. Each stage exists only when the route
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
  const { status, body: bodySchema, query: querySchema, response } = spec.route;
  const { handler, bodyLimit, guards } = spec;
  const fail = (error: unknown, ctx: Context, reply: Reply): void => deliver(recover(error, ctx), reply);

  const serialize = response === undefined || !spec.serializeResponse ? undefined : compileResponseWriter(response, `${spec.route.controller}.${spec.route.name}`);
  const finish =
    spec.route.webSocket !== undefined
      ? // A WebSocket route's handler (the app's hub accepting the upgrade) answers by itself.
        (result: unknown): Answer => result as Answer
      : serialize === undefined
      ? (result: unknown): Answer => (result instanceof Response ? result : jsonAnswer(status, result))
      : // `undefined` stays 204 (see RouteOptions.status); a mismatch throws to the app's 500.
        // Only a non-zod schema with asynchronous validation makes the text a promise.
        (result: unknown): Answer | Promise<Answer> => {
          if (result instanceof Response) return result;
          if (result === undefined) return jsonAnswer(status, undefined);
          const text = serialize(result);
          return typeof text === 'string' || text === undefined ? jsonTextAnswer(status, text) : text.then((written) => jsonTextAnswer(status, written));
        };
  const finishAndReply = (result: unknown, ctx: Context, reply: Reply): void => whenSettled(finish, result, ctx, reply, replyWith, fail);

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

  if (querySchema && !isZodSchema(querySchema)) stage = standardQueryStage(querySchema, stage, fail);
  else if (querySchema) {
    const next = stage;
    // Keys the schema reads as lists, found once: `?tag=a` must reach `z.array(...)` as ['a'].
    const listKeys = arrayQueryKeys(querySchema);
    stage = (ctx, reply) => {
      let parsed: ReturnType<ZodSchema['safeParse']>;
      try {
        parsed = querySchema.safeParse(listKeys.size === 0 ? ctx.query : withListKeys(ctx.query as QueryRecord, listKeys));
      } catch (error) {
        fail(error, ctx, reply);
        return;
      }
      if (!parsed.success) {
        fail(validationFailed('query', parsed.error.issues), ctx, reply);
        return;
      }
      ctx.query = parsed.data;
      next(ctx, reply);
    };
  }

  if (bodySchema) {
    const next = stage;
    const parse = compileSchemaParser(bodySchema);
    const accept = (parsed: SchemaParseResult, ctx: Context, reply: Reply): void => {
      if (!parsed.success) {
        fail(validationFailed('body', parsed.error.issues), ctx, reply);
        return;
      }
      ctx.body = parsed.data;
      next(ctx, reply);
    };
    // No promise of our own: parsing, validation (synchronous unless the schema is async) and a
    // synchronous handler run inside the body callback, which the Node adapter calls as the body ends.
    stage = (ctx, reply) => {
      const onValue = (raw: unknown): void => whenSettled(parse, raw, ctx, reply, accept, fail);
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
function paramsStage(schema: Schema, pathNames: readonly string[] | undefined, next: RoutePipeline, fail: (error: unknown, ctx: Context, reply: Reply) => void): RoutePipeline {
  const keys = isZodSchema(schema) ? Object.keys((schema as unknown as ZodNode)._zod.def.shape ?? {}) : undefined;
  // Most schemas name every parameter: the router's record is then the input, and the output the whole.
  const covers = keys === undefined || (pathNames !== undefined && pathNames.every((name) => keys.includes(name)));
  const parse = compileSchemaParser(schema);
  return (ctx, reply) => {
    const raw = ctx.params;
    let input: Readonly<Record<string, string>> = raw;
    if (!covers) {
      const picked: Record<string, string> = {};
      for (const key of keys ?? []) if (key in raw) picked[key] = raw[key] as string;
      input = picked;
    }
    // An async refinement (a lookup) is allowed here, as in a body schema.
    whenSettled(parse, input, ctx, reply, accept, fail);
  };
  // ctx.params still holds the router's strings until the parse is accepted.
  function accept(parsed: SchemaParseResult, ctx: Context, reply: Reply): void {
    const raw = ctx.params;
    if (!parsed.success) {
      fail(validationFailed('params', parsed.error.issues), ctx, reply);
      return;
    }
    // Typed by the route's handler (ParsedParams); the context's field holds whatever the route parsed.
    ctx.params = (covers && keys !== undefined ? parsed.data : { ...raw, ...(parsed.data as object) }) as Readonly<Record<string, string>>;
    next(ctx, reply);
  }
}

/**
 * Validates the query with a schema of another library than zod. Its shape cannot be read, so a
 * key it wants as a list cannot be known in advance: when the query fails, it is tried once more
 * with each single value an issue points at as a one-element list (`?tag=a` as `{ tag: ['a'] }`),
 * and the first attempt's issues are the answer when that fails too.
 */
function standardQueryStage(schema: Schema, next: RoutePipeline, fail: (error: unknown, ctx: Context, reply: Reply) => void): RoutePipeline {
  const parse = compileSchemaParser(schema);
  const accepted = (parsed: SchemaParseResult, ctx: Context, reply: Reply): void => {
    if (!parsed.success) {
      fail(validationFailed('query', parsed.error.issues), ctx, reply);
      return;
    }
    ctx.query = parsed.data;
    next(ctx, reply);
  };
  const retried = (first: SchemaParseResult, query: QueryRecord): SchemaParseResult | Promise<SchemaParseResult> => {
    if (first.success) return first;
    const listed = withSingleValuesListed(query, first.error.issues);
    if (listed === query) return first;
    const second = parse(listed);
    const pick = (again: SchemaParseResult): SchemaParseResult => (again.success ? again : first);
    return second instanceof Promise ? second.then(pick) : pick(second);
  };
  const parseWithRetry = (query: QueryRecord): SchemaParseResult | Promise<SchemaParseResult> => {
    const first = parse(query);
    return first instanceof Promise ? first.then((result) => retried(result, query)) : retried(first, query);
  };
  return (ctx, reply) => whenSettled(parseWithRetry, ctx.query as QueryRecord, ctx, reply, accepted, fail);
}

/** Hands a settled answer to the reply (`whenSettled`'s last step for the result stage). */
function replyWith(answer: Answer, _ctx: Context, reply: Reply): void {
  reply(answer);
}

/**
 * Runs one step of a pipeline stage that may be asynchronous (a schema parse, the result's
 * serialisation) and hands its value to `accept`: in the same turn when the step is synchronous
 * (no promise of our own on the fast path), after it when it returns a promise; a throw or a
 * rejection goes to `fail`.
 */
function whenSettled<I, O>(
  step: (input: I) => O | Promise<O>,
  input: I,
  ctx: Context,
  reply: Reply,
  accept: (value: O, ctx: Context, reply: Reply) => void,
  fail: (error: unknown, ctx: Context, reply: Reply) => void,
): void {
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
