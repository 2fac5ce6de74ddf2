import { Container, type GraphOverrides, type ModuleRecord } from '../modules/container.js';
import type { ModuleInput } from '../modules/module.js';
import type { InjectionToken } from '../common/token.js';
import { MethodNotAllowedException, BadRequestException, NotFoundException, type HttpException } from '../http/http-exception.js';
import { incomingFromRequest, type IncomingRequest } from '../http/incoming-request.js';
import { DEFAULT_BODY_LIMIT } from '../http/json-body.js';
import { toResponse, withoutBody, type Answer } from '../http/answer.js';
import { errorAnswer } from '../http/problem.js';
import { consoleLogger, type Logger } from '../common/logger.js';
import { Context } from '../context/request-context.js';
import { joinPaths, pathParamNames } from '../routing/path.js';
import type { RouteInfo } from '../context/route-info.js';
import { RouteDefinitionError } from '../routing/route-definition-error.js';
import { Router, type RouteMatch } from '../routing/router.js';
import type { App, ListeningServer, RawRouteHandler, ServerAdapter } from './app.js';
import { TesseraError } from '../common/tessera-error.js';
import { composeMiddleware, type ErrorHandler, type Middleware, type NotFoundHandler } from '../context/middleware.js';
import type { Guard, GuardToken } from '../context/guard.js';
import type { Interceptor, InterceptorToken } from '../context/interceptor.js';
import { runHooks } from './lifecycle.js';
import { compilePipeline, type RoutePipeline } from './pipeline.js';
import type { ResponseObserver } from './response-observer.js';

/**
 * Options of {@link createApp}.
 *
 * @example
 * createApp(AppModule, { bodyLimit: 64 * 1024, onResponse: [createAccessLog()] });
 */
export interface AppOptions {
  /** Guards run before every route, before module, controller and route guards. Resolved in the root module. */
  readonly guards?: readonly GuardToken[];
  /** Interceptors around every handler, outermost first. */
  readonly interceptors?: readonly InterceptorToken[];
  /** Receives unexpected errors (500s). Default: console. */
  readonly logger?: Logger;
  /** Largest accepted request body, in bytes. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** Called after each response; see `createAccessLog`. */
  readonly onResponse?: readonly ResponseObserver[];
  /** Around every request, before routing, outermost first; see {@link Middleware}. */
  readonly middleware?: readonly Middleware[];
  /** Maps any thrown error to an answer; see {@link ErrorHandler}. */
  readonly onError?: ErrorHandler;
  /** Answers requests no route matches; see {@link NotFoundHandler}. */
  readonly notFound?: NotFoundHandler;
  /** What `app.listen` starts; see {@link ServerAdapter}. */
  readonly server?: ServerAdapter;
  /**
   * Replacements of providers and modules anywhere in the graph, for tests; `createTestingApp`
   * from `tessera-http/testing` builds them. An override that matches nothing fails the boot.
   */
  readonly overrides?: GraphOverrides;
}

interface CompiledRoute {
  readonly info: RouteInfo | undefined;
  readonly bodyLimit: number;
  readonly run: RoutePipeline;
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});


const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
function sortMethods(methods: readonly string[]): string[] {
  const rank = (m: string) => (METHOD_ORDER.includes(m) ? METHOD_ORDER.indexOf(m) : METHOD_ORDER.length);
  return [...methods].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

/**
 * Builds an application from a root module (a definition or a decorated class): resolves the
 * module graph, builds every provider in dependency order, compiles every route, awaits the
 * `onModuleInit` hooks and returns the app. Configuration mistakes (missing or invisible
 * providers, circular dependencies, duplicate routes) fail here, not on the first request.
 *
 * @example
 * const app = await createApp(AppModule);
 * const res = await app.fetch(new Request('http://localhost/posts'));
 */
export async function createApp(root: ModuleInput, options: AppOptions = {}): Promise<App> {
  const logger = options.logger ?? consoleLogger;
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const container = new Container(root, options.overrides);
  await container.buildAll();

  const resolveAll = async <T>(module: ModuleRecord, tokens: readonly InjectionToken<T>[], requestedBy: string): Promise<T[]> => {
    const out: T[] = [];
    for (const token of tokens) out.push(await container.resolveOrConstruct(module, token, requestedBy));
    return out;
  };

  const appGuards: Guard[] = await resolveAll(container.root, options.guards ?? [], 'createApp guards');
  const appInterceptors: Interceptor[] = await resolveAll(container.root, options.interceptors ?? [], 'createApp interceptors');
  for (const module of container.modules) {
    appGuards.push(...(await resolveAll<Guard>(module, module.definition.appGuards, `${module.name} appGuards`)));
    appInterceptors.push(...(await resolveAll<Interceptor>(module, module.definition.appInterceptors, `${module.name} appInterceptors`)));
  }

  const router = new Router<CompiledRoute>();
  const routes: RouteInfo[] = [];
  const controllerInstances: object[] = [];
  for (const module of container.modules) {
    for (const controller of module.controllers) {
      const deps: unknown[] = [];
      for (const token of controller.inject) deps.push(await container.resolve(module, token, controller.name));
      const { routes: routeMap, instance } = controller.setup(...(deps as never[]));
      if (instance) controllerInstances.push(instance);
      const controllerGuards = await resolveAll<Guard>(module, controller.guards, controller.name);
      const controllerInterceptors = await resolveAll<Interceptor>(module, controller.interceptors, controller.name);
      for (const [name, route] of Object.entries(routeMap)) {
        const path = joinPaths(controller.prefix, route.path);
        const where = `${controller.name}.${name}`;
        const routeBodyLimit = route.bodyLimit ?? bodyLimit;
        const info: RouteInfo = Object.freeze({
          method: route.method,
          path,
          name,
          controller: controller.name,
          module: module.name,
          status: route.status,
          params: Object.freeze(pathParamNames(path)),
          body: route.body,
          query: route.query,
          response: route.response,
          guards: route.guards,
          interceptors: route.interceptors,
          metadata: route.metadata,
          controllerMetadata: controller.metadata,
        });
        const run = compilePipeline({
          name: where,
          handler: route.handler,
          status: route.status,
          // A definition from an older copy of the package has no flag: serialise, the safe side.
          response: route.serializeResponse === false ? undefined : route.response,
          body: route.body,
          query: route.query,
          bodyLimit: routeBodyLimit,
          guards: [...appGuards, ...controllerGuards, ...(await resolveAll<Guard>(module, route.guards, where))],
          interceptors: [
            ...appInterceptors,
            ...controllerInterceptors,
            ...(await resolveAll<Interceptor>(module, route.interceptors, where)),
          ],
        });
        try {
          router.add(route.method, path, { info, bodyLimit: routeBodyLimit, run });
        } catch (error) {
          throw new RouteDefinitionError(`${where}: ${(error as Error).message}`);
        }
        routes.push(info);
      }
    }
  }

  const unused = container.unusedOverrides();
  if (unused.length > 0) {
    throw new TesseraError('OVERRIDE_UNUSED', `Overridden but not part of the app (nothing provides or uses it): ${unused.join(', ')}.`);
  }

  await runHooks([...container.instances, ...controllerInstances], 'onModuleInit');

  const observers = options.onResponse ?? [];
  const middleware = options.middleware ?? [];
  const { onError, notFound } = options;

  /** The router's refusal for a request no route serves. */
  const refusal = (incoming: IncomingRequest, match: Exclude<RouteMatch<CompiledRoute>, { kind: 'found' }>): HttpException =>
    match.kind === 'method-not-allowed'
      ? new MethodNotAllowedException(sortMethods(match.allow))
      : match.kind === 'bad-path'
        ? new BadRequestException('The request path contains a malformed percent-encoding.')
        : new NotFoundException(`No route for ${incoming.method} ${incoming.path}`);

  /** An error as the default problem answer (a logged 500 for unknown errors), for routes run without onError. */
  const recover = (error: unknown): Answer => errorAnswer(error, logger);

  /** An error as an answer: the app's onError first, else the problem (a logged 500 for unknown errors). */
  const answerError = (error: unknown, ctx: Context): Answer | Promise<Answer> => {
    if (onError === undefined) return errorAnswer(error, logger);
    const fallback = (mapperError: unknown): Answer => {
      logger.error('onError failed; answering with the default problem', mapperError);
      return errorAnswer(error, logger);
    };
    try {
      const mapped = onError(error, ctx);
      if (mapped instanceof Promise) return mapped.then((outcome) => outcome ?? errorAnswer(error, logger), fallback);
      return mapped ?? errorAnswer(error, logger);
    } catch (mapperError) {
      return fallback(mapperError);
    }
  };

  /** Routing and the route's pipeline, for apps with middleware, onError or notFound: errors are thrown to the caller. */
  const routeWithContext = (ctx: Context): Answer | Promise<Answer> => {
    const incoming = ctx.incoming;
    if (incoming.invalid !== undefined) throw incoming.invalid;
    const head = incoming.method === 'HEAD';
    const match = router.match(head ? 'GET' : incoming.method, incoming.path);
    if (match.kind !== 'found') {
      if (match.kind === 'not-found' && notFound !== undefined) return notFound(ctx);
      throw refusal(incoming, match);
    }
    ctx.enterRoute(match.params, match.value.info, match.value.bodyLimit);
    // HEAD is answered like GET here; the body is dropped after the middleware, which thus sees
    // the same answer for both (an ETag middleware gives HEAD the GET's tag).
    return match.value.run(ctx);
  };
  const aroundEveryRequest = composeMiddleware(middleware, routeWithContext, answerError);
  const needsEarlyContext = middleware.length > 0 || onError !== undefined || notFound !== undefined;

  /**
   * One request to one answer. Without middleware, onError or notFound, the router runs first
   * and a context exists only for a matched route: a 404 allocates nothing but its answer. The
   * context is handed to `seen` only when response observers want it (no wrapper per request).
   */
  const answerRequest = (incoming: IncomingRequest, seen?: (ctx: Context) => void): Answer | Promise<Answer> => {
    if (needsEarlyContext) {
      const ctx = new Context(incoming, NO_PARAMS, undefined, bodyLimit);
      seen?.(ctx);
      const outcome = aroundEveryRequest(ctx);
      return incoming.method === 'HEAD' ? outcome.then(withoutBody) : outcome;
    }
    const invalid = incoming.invalid;
    if (invalid !== undefined) return errorAnswer(invalid, logger);
    const head = incoming.method === 'HEAD';
    const match = router.match(head ? 'GET' : incoming.method, incoming.path);
    if (match.kind !== 'found') return errorAnswer(refusal(incoming, match), logger);
    const ctx = new Context(incoming, match.params, match.value.info, match.value.bodyLimit);
    seen?.(ctx);
    // Total with `recover`: no try here and no catch on its promise.
    let outcome = match.value.run(ctx, recover);
    if (head) outcome = outcome instanceof Promise ? outcome.then(withoutBody) : withoutBody(outcome);
    return outcome;
  };

  const handle =
    observers.length === 0
      ? (incoming: IncomingRequest) => answerRequest(incoming)
      : (incoming: IncomingRequest) => {
          const started = performance.now();
          let ctx: Context | undefined;
          const outcome = answerRequest(incoming, (seenCtx) => {
            ctx = seenCtx;
          });
          const report = (result: Answer): Answer => {
            const event = { method: incoming.method, path: incoming.path, status: result.status, durationMs: performance.now() - started, ctx };
            for (const observe of observers) {
              try {
                observe(event);
              } catch (error) {
                logger.error('A response observer failed', error);
              }
            }
            return result;
          };
          return outcome instanceof Promise ? outcome.then(report) : report(outcome);
        };

  // Runtime-neutral: the second argument is the platform's environment (Workers bindings). The
  // client address of Bun and Deno is read by `toFetchHandler` from `tessera-http/fetch`.
  const fetch = async (request: Request, env?: unknown) => toResponse(await handle(incomingFromRequest(request, undefined, env)));

  const app: App = {
    fetch,
    handle,
    request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
      const request = input instanceof Request ? (init === undefined ? input : new Request(input, init)) : new Request(new URL(input, 'http://localhost'), init);
      return fetch(request);
    },
    routes: Object.freeze(routes),
    get<T>(token: InjectionToken<T>): T {
      return container.get(container.root, token, 'app.get');
    },
    addRawRoute(method: string, path: string, handler: RawRouteHandler) {
      const canonical = joinPaths('', path);
      router.add(method.toUpperCase(), canonical, { info: undefined, bodyLimit, run: (ctx) => handler(ctx) });
    },
    async listen(port?: number, host?: string): Promise<ListeningServer> {
      if (options.server === undefined) {
        throw new TesseraError(
          'SERVER_ADAPTER_MISSING',
          "app.listen needs a server adapter: createApp(root, { server: nodeServer }) with nodeServer from 'tessera-http/node', or serve(app) from 'tessera-http/node'. On Bun, Deno and Workers, serve app.fetch.",
        );
      }
      return options.server(app, { port, host });
    },
    async close() {
      const order = [...container.instances, ...controllerInstances].reverse();
      await runHooks(order, 'onModuleDestroy');
      await runHooks(order, 'onApplicationShutdown');
    },
  };
  return Object.freeze(app);
}

