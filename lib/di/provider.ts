import { ProviderDefinitionError } from './di-errors.js';
import { hasDefinition, DEFINITION } from '../common/definition-carrier.js';
import type { ClassToken, InjectionToken } from './token.js';
import { tokenName } from './token.js';

/** A concrete class constructor. */
export type Constructor<T> = new (...args: never[]) => T;

/** Maps a tuple of values to the tuple of tokens that provide them. */
export type TokensFor<Args extends readonly unknown[]> = { readonly [K in keyof Args]: InjectionToken<Args[K]> };

/** Maps a tuple of tokens to the tuple of values they resolve to. */
export type ResolvedTokens<Tokens extends readonly unknown[]> = {
  -readonly [K in keyof Tokens]: Tokens[K] extends InjectionToken<infer T> ? T : never;
};

/**
 * A provider built by `new useClass(...inject)`.
 *
 * @example
 * const p: ClassProvider<PostsService> = { provide: PostsService, useClass: PostsService, inject: [PostsStore] };
 */
export interface ClassProvider<T> {
  readonly provide: InjectionToken<T>;
  readonly useClass: Constructor<T>;
  readonly inject?: readonly InjectionToken<unknown>[];
}

/**
 * A provider built by calling `useFactory(...inject)`; the factory may be async.
 *
 * @example
 * const p: FactoryProvider<Db> = { provide: DB, useFactory: (cfg: Config) => connect(cfg.url), inject: [CONFIG] };
 */
export interface FactoryProvider<T> {
  readonly provide: InjectionToken<T>;
  // The parameters are checked where the provider is written (see defineFactory); here they are opaque.
  readonly useFactory: (...deps: never[]) => T | Promise<T>;
  readonly inject?: readonly InjectionToken<unknown>[];
}

/**
 * A provider that is a ready value.
 *
 * @example
 * const p: ValueProvider<Config> = { provide: CONFIG, useValue: { port: 3000 } };
 */
export interface ValueProvider<T> {
  readonly provide: InjectionToken<T>;
  readonly useValue: T;
}

/**
 * A provider that is another token under a second name: both resolve to the same instance.
 *
 * @example
 * const p: ExistingProvider<ApiKeyStore> = { provide: API_KEY_STORE, useExisting: TenantApiKeys };
 */
export interface ExistingProvider<T> {
  readonly provide: InjectionToken<T>;
  readonly useExisting: InjectionToken<T>;
}

/**
 * Anything a module's `providers` list accepts: a class with no constructor parameters (or a
 * decorated class), or one of the provider objects.
 *
 * @example
 * providers: [PostsStore, defineProvider(PostsService, [PostsStore]), { provide: CONFIG, useValue: cfg }]
 */
export type ProviderInput =
  | ClassToken<unknown>
  | ClassProvider<unknown>
  | FactoryProvider<unknown>
  | ValueProvider<unknown>
  | ExistingProvider<unknown>;

/** The normalized form of a class provider. */
export interface ClassProviderDefinition {
  readonly kind: 'class';
  readonly provide: InjectionToken<unknown>;
  readonly useClass: Constructor<unknown>;
  readonly inject: readonly InjectionToken<unknown>[];
}

/** The normalized form the container works with. */
export type ProviderDefinition =
  | ClassProviderDefinition
  | { readonly kind: 'factory'; readonly provide: InjectionToken<unknown>; readonly useFactory: (...deps: never[]) => unknown; readonly inject: readonly InjectionToken<unknown>[] }
  | { readonly kind: 'value'; readonly provide: InjectionToken<unknown>; readonly useValue: unknown }
  | { readonly kind: 'existing'; readonly provide: InjectionToken<unknown>; readonly useExisting: InjectionToken<unknown> };

/**
 * A class provider whose dependency list is checked against the constructor's parameters.
 *
 * @example
 * class PostsService { constructor(readonly store: PostsStore) {} }
 * defineProvider(PostsService, [PostsStore]);
 */
export function defineProvider<C extends new (...args: never[]) => unknown>(
  useClass: C,
  inject: TokensFor<ConstructorParameters<C>>,
): ClassProvider<InstanceType<C>> {
  return Object.freeze({ provide: useClass as never, useClass: useClass as never, inject: Object.freeze([...inject]) as never });
}

/**
 * A factory provider whose parameters are checked against its dependency list.
 *
 * @example
 * const DB = createToken<Db>('DB');
 * defineFactory(DB, [CONFIG], (cfg) => connect(cfg.url));
 */
export function defineFactory<T, const D extends readonly InjectionToken<unknown>[]>(
  provide: InjectionToken<T>,
  inject: D,
  useFactory: (...deps: ResolvedTokens<D>) => T | Promise<T>,
): FactoryProvider<T> {
  return Object.freeze({ provide, useFactory: useFactory as never, inject: Object.freeze([...inject]) });
}

/**
 * Normalizes a provider input; a bare class with constructor parameters and no decorator
 * metadata cannot be built, so that is reported here with both ways to fix it.
 */
export function normalizeProvider(input: ProviderInput): ProviderDefinition {
  if (typeof input === 'function') {
    if (hasDefinition(input)) return input[DEFINITION]() as ProviderDefinition;
    if (input.length > 0) {
      throw new ProviderDefinitionError(
        `${tokenName(input)} has constructor parameters but no dependency list. ` +
          `List them with defineProvider(${tokenName(input)}, [...]) or { provide, useClass, inject }, ` +
          `or decorate the class with @Injectable() and compile with emitDecoratorMetadata.`,
      );
    }
    return Object.freeze({ kind: 'class', provide: input, useClass: input as unknown as Constructor<unknown>, inject: [] });
  }
  if ('useExisting' in input) return Object.freeze({ kind: 'existing', provide: input.provide, useExisting: input.useExisting });
  if ('useValue' in input) return Object.freeze({ kind: 'value', provide: input.provide, useValue: input.useValue });
  if ('useFactory' in input) {
    return Object.freeze({ kind: 'factory', provide: input.provide, useFactory: input.useFactory, inject: input.inject ?? [] });
  }
  if ('useClass' in input) {
    // A decorated class used under another token keeps the dependencies its decorators recorded.
    const inject = input.inject ?? (hasDefinition(input.useClass) ? (input.useClass[DEFINITION]() as { inject: readonly InjectionToken<unknown>[] }).inject : []);
    return Object.freeze({ kind: 'class', provide: input.provide, useClass: input.useClass, inject });
  }
  throw new ProviderDefinitionError(`Not a provider: ${tokenName(input)}`);
}
