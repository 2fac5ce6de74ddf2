import type { GuardToken } from '../context/guard.js';
import type { InterceptorToken } from '../context/interceptor.js';
import type { DefinitionCarrier } from '../common/definition-carrier.js';
import type { ResolvedTokens } from '../di/provider.js';
import type { InjectionToken } from '../di/token.js';
import { metadataRecord, type MetadataEntry } from '../common/metadata.js';
import type { RouteDefinition } from './route.js';
import { routeHelpers, type RouteHelpers } from './route-helpers.js';

/** Named routes; the names become handler names (and OpenAPI operation ids). */
export type RouteMap = Readonly<Record<string, RouteDefinition>>;

/**
 * What a controller's setup returns once its dependencies exist: its routes, and the instance
 * (for class controllers) whose lifecycle hooks the app runs.
 */
export interface ControllerSetup {
  readonly routes: RouteMap;
  readonly instance?: object;
}

/**
 * A controller as plain data.
 *
 * @example
 * const def: ControllerDefinition = defineController({ name: 'Health', routes: () => ({ ok: get('/health', () => 'ok') }) });
 */
export interface ControllerDefinition<Routes extends RouteMap = RouteMap, Prefix extends string = string> {
  /** Type carriers only: never set. The routes and prefix as the builder saw them, for typed clients. */
  readonly '~routes'?: Routes;
  readonly '~prefix'?: Prefix;
  readonly kind: 'controller';
  readonly name: string;
  readonly prefix: string;
  readonly inject: readonly InjectionToken<unknown>[];
  readonly guards: readonly GuardToken[];
  readonly interceptors: readonly InterceptorToken[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Builds the routes from the resolved dependencies; called once by createApp. */
  readonly setup: (...deps: never[]) => ControllerSetup;
}

/**
 * A controller definition, or a decorated controller class (any class is accepted here and
 * checked when the app is built, since decorators cannot change a class's static type).
 */
export type ControllerInput = ControllerDefinition | DefinitionCarrier<ControllerDefinition> | (abstract new (...args: never[]) => unknown);

/**
 * Options of {@link defineController}.
 *
 * @example
 * const options: ControllerOptions<[typeof PostsStore]> = { name: 'Posts', inject: [PostsStore], routes: (store) => ({}) };
 */
export interface ControllerOptions<Deps extends readonly InjectionToken<unknown>[], Prefix extends string = string, Routes extends RouteMap = RouteMap> {
  readonly name: string;
  readonly prefix?: Prefix;
  readonly inject?: Deps;
  readonly guards?: readonly GuardToken[];
  readonly interceptors?: readonly InterceptorToken[];
  readonly metadata?: readonly MetadataEntry[];
  /**
   * Receives the dependencies listed in `inject`, typed, then the route helpers bound to the
   * prefix (`{ get, post, put, patch, del }`, whose handlers see the prefix's parameters in
   * `ctx.params`), and returns the named routes.
   */
  readonly routes: (...args: [...ResolvedTokens<Deps>, RouteHelpers<Prefix>]) => Routes;
}

/**
 * Defines a controller: a prefix, its dependencies, and a function from those dependencies to
 * named routes. Handler argument types come from each route's path and schemas.
 *
 * @example
 * const postsController = defineController({
 *   name: 'PostsController',
 *   prefix: '/posts',
 *   inject: [PostsStore],
 *   routes: (store) => ({
 *     list: get('/', () => store.list()),
 *     create: post('/', { body: CreatePost, status: 201 }, (ctx) => store.create(ctx.body)),
 *   }),
 * });
 */
export function defineController<const Deps extends readonly InjectionToken<unknown>[] = [], const Prefix extends string = '', const Routes extends RouteMap = RouteMap>(
  options: ControllerOptions<Deps, Prefix, Routes>,
): ControllerDefinition<Routes, Prefix> {
  const routes = options.routes;
  // The type parameters describe what the routes function returns; the data is the same.
  return controllerFromParts({
    name: options.name,
    prefix: options.prefix,
    inject: options.inject,
    guards: options.guards,
    interceptors: options.interceptors,
    metadata: metadataRecord(options.metadata),
    setup: (...deps: never[]) => ({ routes: routes(...([...deps, routeHelpers] as unknown as [...ResolvedTokens<Deps>, RouteHelpers<Prefix>])) }),
  }) as ControllerDefinition<Routes, Prefix>;
}

/**
 * Builds a frozen ControllerDefinition from its parts; shared by `defineController` and the
 * facade so that both produce the same data. A building block for other front ends (the
 * decorator facade is one); applications use `defineController`.
 *
 * @example
 * controllerFromParts({ name: 'C', metadata: {}, setup: () => ({ routes: {} }) });
 */
export function controllerFromParts(parts: {
  readonly name: string;
  readonly prefix?: string | undefined;
  readonly inject?: readonly InjectionToken<unknown>[] | undefined;
  readonly guards?: readonly GuardToken[] | undefined;
  readonly interceptors?: readonly InterceptorToken[] | undefined;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly setup: (...deps: never[]) => ControllerSetup;
}): ControllerDefinition {
  return Object.freeze({
    kind: 'controller',
    name: parts.name,
    prefix: parts.prefix ?? '',
    inject: Object.freeze([...(parts.inject ?? [])]),
    guards: Object.freeze([...(parts.guards ?? [])]),
    interceptors: Object.freeze([...(parts.interceptors ?? [])]),
    metadata: parts.metadata,
    setup: parts.setup,
  });
}
