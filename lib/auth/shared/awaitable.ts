/**
 * A value or a promise of it. Store methods may answer either way, so an in-memory store can
 * stay synchronous while a database store is async; the issuing service always awaits.
 *
 * @example
 * const find = (hash: string): Awaitable<RefreshTokenRecord | undefined> => rows.get(hash);
 */
export type Awaitable<T> = T | PromiseLike<T>;
