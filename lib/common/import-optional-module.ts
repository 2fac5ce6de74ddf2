/**
 * Imports a module that may not exist in this runtime (a Node built-in, an optional native
 * addon) and rejects if it cannot be loaded.
 *
 * The specifier goes through a parameter on purpose: bundlers for Workers/Deno/browsers only
 * follow `import('literal')`, so they neither fail on `node:*` nor try to bundle a `.node`
 * binary, and this file keeps loading everywhere. The magic comments stop vite and webpack
 * from warning about the dynamic specifier.
 *
 * @example
 * const workerThreads = await importOptionalModule('node:worker_threads');
 */
export async function importOptionalModule(specifier: string): Promise<unknown> {
  return import(/* @vite-ignore */ /* webpackIgnore: true */ specifier);
}
