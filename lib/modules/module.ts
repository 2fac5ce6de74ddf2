import type { ControllerInput } from '../routing/controller.js';
import type { DefinitionCarrier } from '../common/definition-carrier.js';
import type { InjectionToken } from '../di/token.js';
import type { ProviderInput } from '../di/provider.js';
import type { GuardToken } from '../context/guard.js';
import type { InterceptorToken } from '../context/interceptor.js';

/**
 * A module as plain data: what it provides, which controllers it serves, what it imports and
 * what it shows to its importers.
 *
 * @example
 * const BlogModule = defineModule({ name: 'BlogModule', providers: [PostsStore], controllers: [postsController] });
 */
export interface ModuleDefinition {
  readonly kind: 'module';
  readonly name: string;
  readonly imports: readonly ModuleInput[];
  readonly providers: readonly ProviderInput[];
  readonly controllers: readonly ControllerInput[];
  /** Tokens this module provides (or re-exports), and imported modules whose exports it passes on. */
  readonly exports: readonly (InjectionToken<unknown> | ModuleInput)[];
  /** When true, this module's exports are visible in every module without importing it. */
  readonly global: boolean;
  /** Guards run before every route of the app, in module order, after createApp's own. */
  readonly appGuards: readonly GuardToken[];
  /** Interceptors wrapped around every route handler of the app. */
  readonly appInterceptors: readonly InterceptorToken[];
}

/**
 * A module definition, or a decorated module class. Decorators cannot change a class's static
 * type, so any class is accepted here and checked when the app is built.
 */
export type ModuleInput = ModuleDefinition | DefinitionCarrier<ModuleDefinition> | (abstract new (...args: never[]) => unknown);

/**
 * The options of {@link defineModule}; everything but the name is optional.
 *
 * @example
 * const options: ModuleOptions = { name: 'PostsModule', providers: [PostsStore], exports: [PostsStore] };
 */
export interface ModuleOptions {
  readonly name: string;
  readonly imports?: readonly ModuleInput[];
  readonly providers?: readonly ProviderInput[];
  readonly controllers?: readonly ControllerInput[];
  readonly exports?: readonly (InjectionToken<unknown> | ModuleInput)[];
  readonly global?: boolean;
  readonly appGuards?: readonly GuardToken[];
  readonly appInterceptors?: readonly InterceptorToken[];
}

/**
 * Defines a module. Dynamic modules are plain functions returning one:
 * `const forRoot = (opts) => defineModule({ name: 'Config', providers: [{ provide: CONFIG, useValue: opts }], exports: [CONFIG] })`.
 *
 * @example
 * export const AppModule = defineModule({
 *   name: 'AppModule',
 *   imports: [PostsModule],
 *   controllers: [postsController],
 * });
 */
export function defineModule(options: ModuleOptions): ModuleDefinition {
  return Object.freeze({
    kind: 'module',
    name: options.name,
    imports: Object.freeze([...(options.imports ?? [])]),
    providers: Object.freeze([...(options.providers ?? [])]),
    controllers: Object.freeze([...(options.controllers ?? [])]),
    exports: Object.freeze([...(options.exports ?? [])]),
    global: options.global ?? false,
    appGuards: Object.freeze([...(options.appGuards ?? [])]),
    appInterceptors: Object.freeze([...(options.appInterceptors ?? [])]),
  });
}
