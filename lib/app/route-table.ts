import type { InjectionToken } from '../di/token.js';
import type { Guard, GuardToken } from '../context/guard.js';
import type { Interceptor, InterceptorToken } from '../context/interceptor.js';
import type { RouteInfo } from '../context/route-info.js';
import type { Container, ModuleRecord } from '../modules/container.js';
import { joinPaths, pathParamNames } from '../routing/path.js';
import { RouteDefinitionError } from '../routing/route-definition-error.js';
import type { Router } from '../routing/router.js';
import type { CompiledRoute, RespondingRoute } from './dispatch.js';
import { compilePipeline } from './pipeline.js';
import { compileAnswerStep, recordAnswerStep } from './answer-step.js';
import { assertHandler, assertMethod, assertParamsSchema, assertSchema, assertTokens } from './definition-checks.js';
import type { Recover } from './reply.js';
import type { WebSocketHub } from '../websocket/web-socket-hub.js';

/** What {@link compileRouteTable} needs besides the built container. */
export interface RouteTableOptions {
  /** Guards and interceptors around every route (createApp's own, resolved in the root module). */
  readonly guards: readonly GuardToken[];
  readonly interceptors: readonly InterceptorToken[];
  /** The app's body limit, for routes that set none. */
  readonly bodyLimit: number;
  readonly recover: Recover;
  /** Serves the WebSocket routes' upgrades. */
  readonly webSockets: WebSocketHub;
  /** The app's router, which the routes are added to. */
  readonly router: Router<RespondingRoute>;
  /** Builds each route's responder (the dispatch's `withResponder`). */
  readonly withResponder: (route: CompiledRoute) => RespondingRoute;
}

/** Every route of the app, compiled (and added to the router): the public table, and the controllers. */
export interface RouteTable {
  readonly routes: readonly RouteInfo[];
  /** Instances of class-style controllers, for the lifecycle hooks. */
  readonly controllerInstances: readonly object[];
}

/**
 * Compiles every controller of a built container, once, at boot: resolves guards and
 * interceptors (app, module `appGuards`, controller, route), builds each route's table entry, and
 * from that same entry its answer step, its pipeline and its responder, and adds them to the router. A duplicate or malformed route,
 * a schema that is not zod, a guard or interceptor that is undefined or lacks its method, fail
 * here with the controller and route named, never on the first request.
 *
 * @example
 * const { routes } = await compileRouteTable(container, { guards: [], interceptors: [], bodyLimit, recover, webSockets, router, withResponder });
 */
export async function compileRouteTable(container: Container, options: RouteTableOptions): Promise<RouteTable> {
  const resolveAll = async <T>(module: ModuleRecord, tokens: readonly InjectionToken<T>[], requestedBy: string): Promise<T[]> => {
    const out: T[] = [];
    for (const token of tokens) out.push(await container.resolveOrConstruct(module, token, requestedBy));
    return out;
  };
  const resolveGuards = async (module: ModuleRecord, tokens: readonly GuardToken[], where: string): Promise<Guard[]> => {
    assertTokens(where, 'guards', tokens);
    const guards = await resolveAll(module, tokens, where);
    guards.forEach((guard, i) => assertMethod(where, 'guard', tokens[i], guard, 'canActivate'));
    return guards;
  };
  const resolveInterceptors = async (module: ModuleRecord, tokens: readonly InterceptorToken[], where: string): Promise<Interceptor[]> => {
    assertTokens(where, 'interceptors', tokens);
    const interceptors = await resolveAll(module, tokens, where);
    interceptors.forEach((interceptor, i) => assertMethod(where, 'interceptor', tokens[i], interceptor, 'intercept'));
    return interceptors;
  };

  const appGuards: Guard[] = await resolveGuards(container.root, options.guards, 'createApp guards');
  const appInterceptors: Interceptor[] = await resolveInterceptors(container.root, options.interceptors, 'createApp interceptors');
  for (const module of container.modules) {
    appGuards.push(...(await resolveGuards(module, module.definition.appGuards, `${module.name} appGuards`)));
    appInterceptors.push(...(await resolveInterceptors(module, module.definition.appInterceptors, `${module.name} appInterceptors`)));
  }

  const router = options.router;
  const routes: RouteInfo[] = [];
  const controllerInstances: object[] = [];
  for (const module of container.modules) {
    for (const controller of module.controllers) {
      const deps: unknown[] = [];
      for (const token of controller.inject) deps.push(await container.resolve(module, token, controller.name));
      const { routes: routeMap, instance } = controller.setup(...(deps as never[]));
      if (instance) controllerInstances.push(instance);
      const controllerGuards = await resolveGuards(module, controller.guards, controller.name);
      const controllerInterceptors = await resolveInterceptors(module, controller.interceptors, controller.name);
      for (const [name, route] of Object.entries(routeMap)) {
        const path = joinPaths(controller.prefix, route.path);
        const where = `${controller.name}.${name}`;
        assertHandler(where, route.handler);
        assertSchema(where, 'body', route.body);
        assertSchema(where, 'query', route.query);
        assertSchema(where, 'response', route.response);
        const paramNames = Object.freeze(pathParamNames(path));
        assertParamsSchema(where, `${route.method} ${path}`, route.paramsSchema, paramNames);
        if (route.webSocket !== undefined) {
          assertSchema(where, 'message', route.webSocket.message);
          assertSchema(where, 'send', route.webSocket.send);
        }
        const info: RouteInfo = Object.freeze({
          method: route.method,
          path,
          name,
          controller: controller.name,
          module: module.name,
          status: route.status,
          params: paramNames,
          paramsSchema: route.paramsSchema,
          body: route.body,
          query: route.query,
          response: route.response,
          guards: route.guards,
          interceptors: route.interceptors,
          metadata: route.metadata,
          controllerMetadata: controller.metadata,
          webSocket: route.webSocket === undefined ? undefined : Object.freeze({ message: route.webSocket.message, send: route.webSocket.send }),
        });
        const webSocket = route.webSocket;
        // Named once per route: every socket of the route shares the string its logs give.
        const socketsWhere = `GET ${path}`;
        const bodyLimit = route.bodyLimit ?? options.bodyLimit;
        const interceptors = [...appInterceptors, ...controllerInterceptors, ...(await resolveInterceptors(module, route.interceptors, where))];
        // A definition from an older copy of the package has no serializeResponse flag: serialise, the safe side.
        const answerStep = compileAnswerStep(info, route.serializeResponse !== false, interceptors.length > 0);
        // The route's one answer step, for the interceptors that make its answer themselves (idempotent()).
        recordAnswerStep(info, answerStep);
        const run = compilePipeline(
          {
            route: info,
            // A WebSocket route's upgrade request ends in the hub, which opens the socket.
            handler: webSocket === undefined ? route.handler : (ctx) => options.webSockets.accept(ctx, webSocket, socketsWhere),
            bodyLimit,
            answerStep,
            guards: [...appGuards, ...controllerGuards, ...(await resolveGuards(module, route.guards, where))],
            interceptors,
          },
          options.recover,
        );
        try {
          router.add(route.method, path, options.withResponder({ info, bodyLimit, run }));
        } catch (error) {
          throw new RouteDefinitionError(`${where}: ${(error as Error).message}`);
        }
        routes.push(info);
      }
    }
  }
  return { routes: Object.freeze(routes), controllerInstances };
}
