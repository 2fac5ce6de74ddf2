import { Container, type GraphOverrides } from '../modules/container.js';
import type { ModuleInput } from '../modules/module.js';
import type { InjectionToken } from '../di/token.js';
import { incomingFromRequest } from '../http/fetch-incoming.js';
import { DEFAULT_BODY_LIMIT } from '../http/json-body.js';
import { LOGGER, type Logger } from '../logging/logger.js';
import { jsonLogger } from '../logging/json-logger.js';
import { joinPaths } from '../routing/path.js';
import type { App, ListeningServer, RawRouteHandler, ServerAdapter } from './app.js';
import { TesseraError } from '../common/tessera-error.js';
import type { ErrorHandler, Middleware, NotFoundHandler } from '../context/middleware.js';
import type { GuardToken } from '../context/guard.js';
import type { InterceptorToken } from '../context/interceptor.js';
import { runHooks } from './lifecycle.js';
import { compilePipeline } from './pipeline.js';
import { compileAnswerStep } from './answer-step.js';
import type { ResponseObserver } from './response-observer.js';
import { createAccessLog, type AccessLogOptions } from './access-log.js';
import type { HealthCheck } from '../common/health-check.js';
import { createHealth, type HealthOptions } from './health.js';
import type { Instrumentation } from './instrumentation.js';
import { LIBRARY_TELEMETRY } from '../telemetry/library-telemetry.js';
import { createRecover } from './answer-error.js';
import { createDispatch, type RespondingRoute } from './dispatch.js';
import { recordRouting } from './responding-routes.js';
import { Router } from '../routing/router.js';
import { deliver, responseOf, type ResponseSource } from './reply.js';
import { compileRouteTable } from './route-table.js';
import { WebSocketHub, WEB_SOCKETS } from '../websocket/web-socket-hub.js';
import { createAppBus } from '../pubsub/app-bus.js';
import { inProcessPubSub, PUB_SUB, type PubSub } from '../pubsub/pub-sub.js';
import { ENV, type ConfigSource } from '../config/env.js';
import type { ClientAddressOptions } from '../network/client-address.js';
import { CLIENT_ADDRESS_RULE, compileClientAddressRule } from '../network/client-address-rule.js';
import { compileOriginPolicy, ORIGIN_POLICY, type OriginPolicy } from '../context/origin-policy.js';

/**
 * Options of {@link createApp}.
 *
 * @example
 * createApp(AppModule, { bodyLimit: 64 * 1024, accessLog: true, health: true });
 */
export interface AppOptions {
  /** Guards run before every route, before module, controller and route guards. Resolved in the root module. */
  readonly guards?: readonly GuardToken[];
  /** Interceptors around every handler, outermost first. */
  readonly interceptors?: readonly InterceptorToken[];
  /**
   * Where unexpected errors (500s), the access line and `ctx.log` go. Default: `jsonLogger()`,
   * JSON lines on standard output. A `pino()` instance fits as it is.
   */
  readonly logger?: Logger;
  /** One `info` line per answered request (`request completed`, with route, status, duration); see {@link AccessLogOptions}. Default off. */
  readonly accessLog?: boolean | AccessLogOptions;
  /** Follows every request from the first middleware to the answer: `openTelemetry()` from `tessera-http/otel`. */
  readonly instrumentation?: Instrumentation;
  /**
   * `GET /health/live` and `GET /health/ready` (public, outside guards and validation, not traced
   * nor access-logged); see {@link HealthOptions}. Default off.
   */
  readonly health?: boolean | HealthOptions;
  /**
   * The app's one trusted-proxy rule (Fastify's `trustProxy`): how many proxies of the app's own
   * append to `X-Forwarded-For` (`trustedProxyHops`) and which peers they are (`isTrustedProxy`,
   * networks or a function). `ctx.clientAddress` is the address it decides, for auth (API keys'
   * `allowedCidrs`, sign-in throttling, sessions), logs and the app's own rate limits. Default:
   * the socket peer is the client and `X-Forwarded-For` is ignored. A bad value fails the boot.
   * See {@link ClientAddressOptions}.
   */
  readonly clientAddress?: ClientAddressOptions;
  /**
   * The app's one origin policy: which browser origins besides its own may call it. `cors()`
   * answers them, WebSocket routes without their own `origins` admit them, and browser sessions'
   * CSRF check accepts their cookie-authenticated requests. Default: none. A malformed origin
   * fails the boot. See {@link OriginPolicy}.
   */
  readonly origins?: OriginPolicy;
  /** Largest accepted request body, in bytes. Default 1 MiB. */
  readonly bodyLimit?: number;
  /** Called after each response, with its status and duration; see {@link ResponseObserver}. */
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
   * Carries WebSocket topics (and whatever the app broadcasts) between publishers and
   * subscribers. Default: `inProcessPubSub()`, closed by `app.close()`; an engine given here is
   * the caller's to close. Give a shared engine to reach the subscribers of every instance.
   */
  readonly pubsub?: PubSub;
  /**
   * The longest a publish on the app's bus (`PUB_SUB`, `app.webSockets.publish`, revocations)
   * holds its caller, ms: telling other instances never makes an answer slow or an error. What
   * the engine could not take in time is kept for a retry or dropped, by the message's
   * `retry` option. Default 250.
   */
  readonly publishTimeoutMs?: number;
  /** How many messages published with `retry: true` the bus keeps while its engine refuses them. Default 10 000. */
  readonly publishRetryLimit?: number;
  /** WebSocket shutdown: how long `app.webSockets.close()` waits for clients to answer 1001 before dropping them, ms. Default 5 000. */
  readonly webSocketCloseGraceMs?: number;
  /** @deprecated renamed webSocketCloseGraceMs; read only when that is not given. Removed in 0.3. */
  readonly webSockets?: { readonly closeGraceMs?: number };
  /**
   * The app's configuration source, which `defineConfig` configurations and the `ENV` token read:
   * a Worker's or Deno's `env`, a test's variables. Default: `process.env` where the runtime has it.
   */
  readonly env?: object;
  /**
   * Replacements of providers and modules anywhere in the graph, for tests; `createTestingApp`
   * from `tessera-http/testing` builds them. An override that matches nothing fails the boot.
   */
  readonly overrides?: GraphOverrides;
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
  const logger = options.logger ?? jsonLogger();
  const bodyLimit = options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  const clientAddress = compileClientAddressRule(options.clientAddress);
  const origins = compileOriginPolicy(options.origins);
  const engine = options.pubsub ?? inProcessPubSub({ onHandlerError: (error, topic) => logger.error({ err: error, topic }, 'A topic handler failed') });
  const instrumentation = options.instrumentation;
  const pubsub = createAppBus(engine, { logger, publishTimeoutMs: options.publishTimeoutMs, publishRetryLimit: options.publishRetryLimit, telemetry: () => instrumentation?.library?.() });
  const webSockets = new WebSocketHub(logger, pubsub, options.webSocketCloseGraceMs ?? options.webSockets?.closeGraceMs ?? 5_000);
  const container = new Container(root, options.overrides, [
    { provide: PUB_SUB, useValue: pubsub },
    { provide: WEB_SOCKETS, useValue: webSockets },
    { provide: LOGGER, useValue: logger },
    { provide: CLIENT_ADDRESS_RULE, useValue: clientAddress },
    { provide: ORIGIN_POLICY, useValue: origins },
    { provide: LIBRARY_TELEMETRY, useValue: () => instrumentation?.library?.() },
    ...(options.env === undefined ? [] : [{ provide: ENV, useValue: options.env as ConfigSource }]),
  ]);
  await container.buildAll();

  const recover = createRecover(options.onError);
  const healthOptions: HealthOptions | undefined = options.health === true ? {} : options.health || undefined;
  const healthPaths = healthOptions === undefined ? [] : [joinPaths('', healthOptions.livePath ?? '/health/live'), joinPaths('', healthOptions.readyPath ?? '/health/ready')];
  const untraced: ReadonlySet<string> = new Set(healthPaths);
  const observers = [...(options.onResponse ?? [])];
  if (options.accessLog) observers.push(createAccessLog(logger, options.accessLog === true ? {} : options.accessLog, untraced));

  const router = new Router<RespondingRoute>();
  const { handle, general, withResponder } = createDispatch({
    router,
    middleware: options.middleware ?? [],
    recover,
    notFound: options.notFound,
    observers,
    logger,
    bodyLimit,
    policies: { clientAddress: clientAddress.read, origins },
    instrumentation: options.instrumentation,
    untraced,
  });

  const { routes, controllerInstances } = await compileRouteTable(container, {
    guards: options.guards ?? [],
    interceptors: options.interceptors ?? [],
    bodyLimit,
    recover,
    webSockets,
    router,
    withResponder,
  });

  const unused = container.unusedOverrides();
  if (unused.length > 0) {
    throw new TesseraError('OVERRIDE_UNUSED', `Overridden but not part of the app (nothing provides or uses it): ${unused.join(', ')}.`);
  }

  await runHooks([...container.instances, ...controllerInstances], 'onModuleInit');

  let draining: Promise<void> | undefined;
  if (healthOptions !== undefined) {
    const checks = (healthOptions.checks ?? []).map((check): HealthCheck => (isHealthCheck(check) ? check : container.get(container.root, check, 'health checks')));
    const health = createHealth(healthOptions, checks, logger, () => draining !== undefined);
    const [livePath, readyPath] = healthPaths as [string, string];
    router.add('GET', livePath, withResponder({ info: undefined, bodyLimit, run: (_ctx, reply) => reply(health.live()) }));
    router.add('GET', readyPath, withResponder({ info: undefined, bodyLimit, run: (_ctx, reply) => deliver(health.ready(), reply) }));
  }
  const drainDelayMs = healthOptions?.drainDelayMs ?? 0;

  const viaHandle: ResponseSource = (incoming, _params, reply) => handle(incoming, reply);
  // Runtime-neutral: the second argument is the platform's environment (Workers bindings). The
  // client address of Bun and Deno is read by `toFetchHandler` from `tessera-http/fetch`.
  const fetch = (request: Request, env?: unknown): Response | Promise<Response> => responseOf(viaHandle, incomingFromRequest(request, undefined, env));

  const app: App = {
    fetch,
    handle,
    request(input: string | URL | Request, init?: RequestInit): Promise<Response> {
      const request = input instanceof Request ? (init === undefined ? input : new Request(input, init)) : new Request(new URL(input, 'http://localhost'), init);
      return Promise.resolve(fetch(request));
    },
    logger,
    routes,
    webSockets,
    get<T>(token: InjectionToken<T>): T {
      return container.get(container.root, token, 'app.get');
    },
    addRawRoute(method: string, path: string, handler: RawRouteHandler) {
      const canonical = joinPaths('', path);
      const route = { controller: 'addRawRoute', name: `${method} ${canonical}`, status: 200, body: undefined, query: undefined, response: undefined };
      const run = compilePipeline(
        {
          route,
          handler,
          bodyLimit,
          answerStep: compileAnswerStep(route, false),
          guards: [],
          interceptors: [],
        },
        recover,
      );
      router.add(method.toUpperCase(), canonical, withResponder({ info: undefined, bodyLimit, run }));
    },
    async listen(port?: number, host?: string): Promise<ListeningServer> {
      if (options.server === undefined) {
        throw new TesseraError(
          'SERVER_ADAPTER_MISSING',
          "app.listen needs a server adapter, and this copy of tessera-http was resolved without one (a bundle for Workers or the browser, or a bundler that ignores the node/bun/deno export conditions). Give one: createApp(root, { server: nodeServer }) with nodeServer from 'tessera-http/node' (bunServer, denoServer from 'tessera-http/fetch'). On Workers, export the app (export default app) instead of listening.",
        );
      }
      return options.server(app, { port, host });
    },
    drain() {
      draining ??= drainDelayMs > 0 ? new Promise((resolve) => setTimeout(resolve, drainDelayMs)) : Promise.resolve();
      return draining;
    },
    async close() {
      await app.drain();
      await webSockets.close();
      pubsub.stop();
      if (options.pubsub === undefined) await engine.close();
      const order = [...container.instances, ...controllerInstances].reverse();
      await runHooks(order, 'beforeModuleDestroy');
      await runHooks(order, 'onModuleDestroy');
      await runHooks(order, 'onApplicationShutdown');
    },
  };
  recordRouting(app, { router, general });
  return Object.freeze(app);
}

function isHealthCheck(value: unknown): value is HealthCheck {
  return typeof value === 'object' && value !== null && typeof (value as { check?: unknown }).check === 'function' && typeof (value as { name?: unknown }).name === 'string';
}
