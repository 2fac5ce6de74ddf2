/**
 * A class usable as an injection token: any constructor, abstract or not.
 *
 * @example
 * class PostsService {}
 * const token: ClassToken<PostsService> = PostsService;
 */
export type ClassToken<T> = abstract new (...args: never[]) => T;

/**
 * A named token for values that are not classes (configuration, interfaces, functions).
 *
 * @example
 * const CONFIG = createToken<{ port: number }>('CONFIG');
 */
export interface Token<T> {
  readonly kind: 'token';
  readonly name: string;
  /** Type carrier only; never set at run time. */
  readonly __type?: T;
}

/**
 * Anything a provider can be registered under and a dependency can ask for.
 *
 * @example
 * const deps: InjectionToken<unknown>[] = [PostsService, CONFIG];
 */
export type InjectionToken<T> = ClassToken<T> | Token<T>;

/**
 * The value a token resolves to.
 *
 * @example
 * type Config = TokenValue<typeof CONFIG>; // { port: number }
 */
export type TokenValue<K> = K extends Token<infer T> ? T : K extends ClassToken<infer T> ? T : never;

/**
 * Creates a named token for a value that is not a class.
 *
 * @example
 * const AUTH_SERVICE = createToken<AuthService>('AUTH_SERVICE');
 * defineModule({ name: 'App', providers: [{ provide: AUTH_SERVICE, useValue: service }] });
 */
export function createToken<T>(name: string): Token<T> {
  return Object.freeze({ kind: 'token', name }) as Token<T>;
}

/**
 * A readable name for a token, for error messages.
 *
 * @example
 * tokenName(PostsService); // 'PostsService'
 */
export function tokenName(token: unknown): string {
  if (typeof token === 'function') return token.name || '<anonymous class>';
  if (token !== null && typeof token === 'object' && 'name' in token && typeof token.name === 'string') {
    return token.name;
  }
  return String(token);
}
