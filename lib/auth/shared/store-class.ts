import type { ClassProvider, ClassToken, ExistingProvider } from '../../index.js';

/**
 * A store given as an injectable class: a class with no constructor parameters, a decorated
 * `@Injectable()` class, or `defineProvider(Class, [deps])`; or `{ useExisting: token }` to share
 * an instance another module exports. Dependencies are resolved inside the auth module, which
 * sees the modules listed in the matching `imports`.
 *
 * @example
 * const store: StoreClass<RefreshTokenStore> = defineProvider(PgRefreshTokenStore, [DB]);
 */
export type StoreClass<T> = ClassToken<T> | ClassProvider<T> | Omit<ExistingProvider<T>, 'provide'>;
