import type { ZodSchema as Schema } from './zod-schema.js';

/**
 * Validates synchronously, the common case, without the promise `safeParseAsync` costs; a
 * schema with async parts (an async refinement or transform) makes zod throw its async error,
 * and only then is the async parse used. Decided per schema once: a schema that needed async
 * keeps parsing async.
 */
const needsAsync = new WeakSet<Schema>();

/** zod's "this schema is async" error, recognised by class name or message (a bundler may rename the class). */
function isZodAsyncError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.constructor.name === '$ZodAsyncError' || error.message.startsWith('Encountered Promise during synchronous parse');
}
/**
 * `schema.safeParse(raw)`, or its promise when the schema turned out to be async.
 *
 * @example
 * const parsed = parseMaybeAsync(CreatePost, body);
 * if (parsed instanceof Promise) parsed.then(accept); else accept(parsed);
 */
export function parseMaybeAsync(schema: Schema, raw: unknown): ReturnType<Schema['safeParse']> | Promise<ReturnType<Schema['safeParse']>> {
  if (!needsAsync.has(schema)) {
    try {
      return schema.safeParse(raw);
    } catch (error) {
      if (!isZodAsyncError(error)) throw error;
      needsAsync.add(schema);
    }
  }
  return schema.safeParseAsync(raw);
}
