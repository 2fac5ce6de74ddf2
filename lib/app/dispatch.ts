import type { Logger } from '../logging/logger.js';
import type { Middleware, NotFoundHandler } from '../context/middleware.js';
import { Context, DEFAULT_POLICIES, type RequestPolicies } from '../context/request-context.js';
import type { RouteInfo } from '../context/route-info.js';
import { withoutBody, type Answer } from '../http/answer.js';
import { BadRequestException, MethodNotAllowedException, NotFoundException, type HttpException } from '../http/http-exception.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { Router, RouteMatch } from '../routing/router.js';
import { answersWithoutBody, routedMethod } from '../routing/native-routes.js';
import { chainMiddleware, type Step } from './middleware-chain.js';
import type { RoutePipeline } from './pipeline.js';
import { deliver, isPromiseLike, type Recover, type Reply } from './reply.js';
import type { Instrumentation, RequestTelemetry } from './instrumentation.js';
import type { ResponseObserver } from './response-observer.js';

/**
 * One route as the route table compiles it: its table entry (undefined for a raw route or a
 * health endpoint), the body limit its requests read under, and its compiled pipeline.
 *
 * @example
 * const compiled: CompiledRoute = { info, bodyLimit: 1_048_576, run: compilePipeline(spec, recover) };
 */
export interface CompiledRoute {
  readonly info: RouteInfo | undefined;
  readonly bodyLimit: number;
  readonly run: RoutePipeline;
}

/**
 * A route's responder: answers one request already routed to the route (by the router, or by
 * the runtime's own router on Bun), with the path parameters found: the app-wide steps around
 * the route's pipeline, built for that route. Calls `reply` exactly once; never throws.
 *
 * @example
 * route.respond(incoming, { id: '7' }, (answer) => write(answer));
 */
export type RouteResponder = (incoming: IncomingRequest, params: Readonly<Record<string, string>>, reply: Reply) => void;

/**
 * A compiled route with its responder: what the router holds.
 *
 * @example
 * router.add('GET', '/hello', withResponder(compiled));
 */
export interface RespondingRoute extends CompiledRoute {
  readonly respond: RouteResponder;
}

/** What the dispatch is built from; see {@link createDispatch}. */
export interface DispatchParts {
  /** Empty at first: the route table adds the routes, each given its responder by `withResponder`. */
  readonly router: Router<RespondingRoute>;
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
  /** The app's client-address rule and origin policy, which every context carries; default {@link DEFAULT_POLICIES}. */
  readonly policies?: RequestPolicies;
}

/** Answers one request: calls `reply` exactly once with the answer; never throws. */
export type Dispatch = (incoming: IncomingRequest, reply: Reply) => void;

/** The app's dispatch; see {@link createDispatch}. */
export interface Dispatcher {
  /** `app.handle`: the router finds the route and its responder answers the request; what no route matches walks the general way, routed once. */
  readonly handle: Dispatch;
  /**
   * The general walk, for every request: a context, the middleware chain, routing, the route's
   * pipeline. It is the reference every route's responder must agree with
   * (property-tests/route-answer); `handle` walks it, without routing again, for what no route matches.
   */
  readonly general: Dispatch;
  /** Builds a route's responder: what the route table and `addRawRoute` add to the router. */
  withResponder(route: CompiledRoute): RespondingRoute;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
function sortMethods(methods: readonly string[]): string[] {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/** The router's refusal for a request no route matches. */
function refusal(incoming: IncomingRequest, match: Refusal): HttpException {
  return match.kind === 'method-not-allowed'
    ? new MethodNotAllowedException(sortMethods(match.allow))
    : match.kind === 'bad-path'
      ? new BadRequestException('The request path contains a malformed percent-encoding.')
      : new NotFoundException(`No route for ${incoming.method} ${incoming.path}`);
}

/** The router's answer when it found no route. */
type Refusal = Exclude<RouteMatch<RespondingRoute>, { kind: 'found' }>;

/** The reply a request's answer goes out through: without its body for HEAD (see answersWithoutBody), after the middleware saw it whole. */
function replyFor(incoming: IncomingRequest, reply: Reply): Reply {
  return answersWithoutBody(incoming.method) ? (answer) => reply(withoutBody(answer)) : reply;
}

/**
 * The app's dispatch. Every request walks one way: a context, the middleware chain
 * (empty when the app has none), routing (a target the adapter found malformed: 400; no route:
 * `notFound` or 404; another method: 405 with `Allow`), the route's pipeline, and the answer to
 * `reply`. HEAD is routed as GET and its body dropped after the middleware, which thus sees the
 * same answer for both (an ETag middleware gives HEAD the GET's tag). The instrumentation, when
 * there is one, follows the whole walk (its trace context is active from the first middleware to
 * the answer); response observers see each answer with the context and the time it took.
 *
 * Routing is pure, so `handle` matches first and hands a found route to the responder
 * `withResponder` built for it at boot, which runs that same walk with only the steps the app has: with
 * no middleware, observer or instrumentation, a context made already routed and the pipeline;
 * otherwise the middleware chain composed around this route's pipeline (no router step inside).
 * Context, middleware and route still come in the same order, so no step sees a difference. A
 * request no route matches walks the general way with the router's refusal already found: it is
 * routed once.
 *
 * @example
 * const { handle, withResponder } = createDispatch({ router, middleware, recover, notFound, observers, logger, bodyLimit, instrumentation, untraced });
 * router.add('GET', '/hello', withResponder(compiled));
 * handle(incoming, (answer) => write(answer));
 */
export function createDispatch(parts: DispatchParts): Dispatcher {
  const { router, middleware, recover, notFound, observers, logger, bodyLimit, instrumentation, untraced } = parts;
  const policies = parts.policies ?? DEFAULT_POLICIES;
  const followed = observers.length > 0 || instrumentation !== undefined;

  /** Runs `step` on a request's context with what the app wraps around every request. */
  const walk = (ctx: Context, step: Step, reply: Reply): void => {
    const incoming = ctx.incoming;
    const telemetry: RequestTelemetry | undefined = instrumentation === undefined || untraced.has(incoming.path) ? undefined : instrumentation.start(incoming, ctx);
    const send = replyFor(incoming, reply);
    // Nothing follows this request (an instrumentation with no SDK behind it): the plain walk.
    if (telemetry === undefined && observers.length === 0) {
      step(ctx, send);
      return;
    }
    const started = performance.now();
    ctx.telemetry = telemetry;
    const finish = (answer: Answer): void => {
      telemetry?.end(answer.status);
      if (observers.length > 0) {
        const event = { method: incoming.method, path: incoming.path, status: answer.status, durationMs: performance.now() - started, ctx };
        for (const observe of observers) {
          try {
            observe(event);
          } catch (error) {
            logger.error({ err: error }, 'A response observer failed');
          }
        }
      }
      send(answer);
    };
    if (telemetry === undefined) step(ctx, finish);
    else telemetry.run(() => step(ctx, finish));
  };

  const route: Step = (ctx, reply) => {
    const incoming = ctx.incoming;
    if (incoming.invalid !== undefined) {
      deliver(recover(incoming.invalid, ctx), reply);
      return;
    }
    // `handle` found the refusal already; the general walk asks the router itself.
    const match = (ctx.refused as Refusal | undefined) ?? router.match(routedMethod(incoming.method), incoming.path);
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
  const chain = chainMiddleware(middleware, route, recover);
  const general: Dispatch = (incoming, reply) => walk(new Context(incoming, NO_PARAMS, undefined, bodyLimit, logger, policies), chain, reply);

  const withResponder = (route: CompiledRoute): RespondingRoute => {
    const { info, bodyLimit: routeLimit, run } = route;
    let respond: RouteResponder;
    if (middleware.length === 0 && !followed) {
      // Nothing runs before routing that could see the context unrouted: it is made routed.
      respond = (incoming, params, reply) => run(new Context(incoming, params, info, routeLimit, logger, policies), replyFor(incoming, reply));
    } else {
      // The middleware sees the context as the general walk shows it, unrouted; the route is
      // entered where the router would have been asked.
      const enter: Step = (ctx, reply) => {
        ctx.enterRoute(ctx.matchedParams, info, routeLimit);
        run(ctx, reply);
      };
      const routeChain = chainMiddleware(middleware, enter, recover);
      respond = (incoming, params, reply) => {
        const ctx = new Context(incoming, NO_PARAMS, undefined, bodyLimit, logger, policies);
        ctx.matchedParams = params;
        walk(ctx, routeChain, reply);
      };
    }
    return { info, bodyLimit: routeLimit, run, respond };
  };

  const handle: Dispatch = (incoming, reply) => {
    if (incoming.invalid !== undefined) {
      general(incoming, reply);
      return;
    }
    const match = router.match(routedMethod(incoming.method), incoming.path);
    if (match.kind === 'found') {
      match.value.respond(incoming, match.params, reply);
      return;
    }
    // A 404 or 405: the general walk, given the router's refusal so that it does not route again.
    const ctx = new Context(incoming, NO_PARAMS, undefined, bodyLimit, logger, policies);
    ctx.refused = match;
    walk(ctx, chain, reply);
  };
  return { handle, general, withResponder };
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
