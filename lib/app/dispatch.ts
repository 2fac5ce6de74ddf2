import type { Logger } from '../common/logger.js';
import type { Middleware, NotFoundHandler } from '../context/middleware.js';
import { Context } from '../context/request-context.js';
import type { RouteInfo } from '../context/route-info.js';
import { withoutBody, type Answer } from '../http/answer.js';
import { BadRequestException, MethodNotAllowedException, NotFoundException, type HttpException } from '../http/http-exception.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { Router, RouteMatch } from '../routing/router.js';
import { chainMiddleware, type Step } from './middleware-chain.js';
import type { RoutePipeline } from './pipeline.js';
import { deliver, isPromiseLike, type Recover, type Reply } from './reply.js';
import type { Instrumentation, RequestTelemetry } from './instrumentation.js';
import type { ResponseObserver } from './response-observer.js';

/**
 * One entry of the router: the route's table entry (undefined for a raw route), the body limit
 * its requests read under, and its compiled pipeline.
 */
export interface RouteEntry {
  readonly info: RouteInfo | undefined;
  readonly bodyLimit: number;
  readonly run: RoutePipeline;
}

/** What the dispatch is built from; see {@link createDispatch}. */
export interface DispatchParts {
  readonly router: Router<RouteEntry>;
  readonly middleware: readonly Middleware[];
  readonly recover: Recover;
  readonly notFound: NotFoundHandler | undefined;
  readonly observers: readonly ResponseObserver[];
  readonly logger: Logger;
  /** Follows each request (traces, metrics); see {@link Instrumentation}. */
  readonly instrumentation: Instrumentation | undefined;
  /** Paths the instrumentation does not follow (the health endpoints). */
  readonly untraced: ReadonlySet<string>;
  /** The app's body limit: what a request reads under until a route gives its own. */
  readonly bodyLimit: number;
}

/** Serves one request: calls `reply` exactly once with the answer; never throws. */
export type Dispatch = (incoming: IncomingRequest, reply: Reply) => void;

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
function sortMethods(methods: readonly string[]): string[] {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The router's refusal for a request no route serves. */
function refusal(incoming: IncomingRequest, match: Exclude<RouteMatch<RouteEntry>, { kind: 'found' }>): HttpException {
  return match.kind === 'method-not-allowed'
    ? new MethodNotAllowedException(sortMethods(match.allow))
    : match.kind === 'bad-path'
      ? new BadRequestException('The request path contains a malformed percent-encoding.')
      : new NotFoundException(`No route for ${incoming.method} ${incoming.path}`);
}

/**
 * The one way a request walks, for every app: a context, the middleware chain (empty when the
 * app has none), routing (a target the adapter found malformed: 400; no route: `notFound` or
 * 404; another method: 405 with `Allow`), the route's pipeline, and the answer to `reply`. HEAD
 * is routed as GET and its body dropped after the middleware, which thus sees the same answer
 * for both (an ETag middleware gives HEAD the GET's tag). The instrumentation, when there is
 * one, follows the whole walk (its trace context is active from the first middleware to the
 * answer); response observers see each answer with the context and the time it took.
 *
 * @example
 * const dispatch = createDispatch({ router, middleware, recover, notFound, observers, logger, bodyLimit, instrumentation, untraced });
 * dispatch(incoming, (answer) => write(answer));
 */
export function createDispatch(parts: DispatchParts): Dispatch {
  const { router, recover, notFound, observers, logger, bodyLimit, instrumentation, untraced } = parts;

  const route: Step = (ctx, reply) => {
    const incoming = ctx.incoming;
    if (incoming.invalid !== undefined) {
      deliver(recover(incoming.invalid, ctx), reply);
      return;
    }
    const match = router.match(incoming.method === 'HEAD' ? 'GET' : incoming.method, incoming.path);
    if (match.kind === 'found') {
      const entry = match.value;
      ctx.enterRoute(match.params, entry.info, entry.bodyLimit);
      entry.run(ctx, reply);
      return;
    }
    if (match.kind === 'not-found' && notFound !== undefined) {
      answerNotFound(notFound, ctx, reply, recover);
      return;
    }
    deliver(recover(refusal(incoming, match), ctx), reply);
  };
  const chain = chainMiddleware(parts.middleware, route, recover);

  const plain = (ctx: Context, reply: Reply): void => chain(ctx, ctx.incoming.method === 'HEAD' ? (answer) => reply(withoutBody(answer)) : reply);
  if (observers.length === 0 && instrumentation === undefined) {
    return (incoming, reply) => plain(new Context(incoming, NO_PARAMS, undefined, bodyLimit, logger), reply);
  }
  return (incoming, reply) => {
    const ctx = new Context(incoming, NO_PARAMS, undefined, bodyLimit, logger);
    const telemetry: RequestTelemetry | undefined = instrumentation === undefined || untraced.has(incoming.path) ? undefined : instrumentation.start(incoming, ctx);
    // Nothing follows this request (an instrumentation with no SDK behind it): the plain walk.
    if (telemetry === undefined && observers.length === 0) return plain(ctx, reply);
    const started = performance.now();
    const head = incoming.method === 'HEAD';
    ctx.telemetry = telemetry;
    const finish = (answer: Answer): void => {
      const sent = head ? withoutBody(answer) : answer;
      telemetry?.end(sent.status);
      if (observers.length > 0) {
        const event = { method: incoming.method, path: incoming.path, status: sent.status, durationMs: performance.now() - started, ctx };
        for (const observe of observers) {
          try {
            observe(event);
          } catch (error) {
            logger.error({ err: error }, 'A response observer failed');
          }
        }
      }
      reply(sent);
    };
    if (telemetry === undefined) chain(ctx, finish);
    else telemetry.run(() => chain(ctx, finish));
  };
}

function answerNotFound(notFound: NotFoundHandler, ctx: Context, reply: Reply, recover: Recover): void {
  let answer: Answer | PromiseLike<Answer>;
  try {
    answer = notFound(ctx);
  } catch (error) {
    deliver(recover(error, ctx), reply);
    return;
  }
  if (isPromiseLike(answer)) Promise.resolve(answer).then(reply, (error: unknown) => deliver(recover(error, ctx), reply));
  else reply(answer);
}
