/**
 * Imports an optional peer (pg-boss, bullmq, ioredis) the engine needs only once it starts.
 *
 * The specifier goes through a parameter on purpose, as tessera-http/auth's optional modules do:
 * bundlers for Workers, Deno and browsers follow only `import('literal')`, so an app that lists
 * `JobsModule` there (with the in-memory or the platform's scheduler) neither fails on the Node
 * built-ins those libraries import nor bundles them. The magic comments keep vite and webpack quiet.
 *
 * @example
 * const { PgBoss } = await importOptionalPeer<typeof import('pg-boss')>('pg-boss');
 */
export async function importOptionalPeer<T>(specifier: string): Promise<T> {
  return (await import(/* @vite-ignore */ /* webpackIgnore: true */ specifier)) as T;
}
