import type { z } from 'zod';
import { isZodSchema, type StandardSchemaV1 } from '../../index.js';
import { parseResultOf } from '../../internal/schema.js';

/**
 * The claims schema as the auth module's parts read it (`safeParse` when a token is verified,
 * `safeParseAsync` when claims are loaded or an API key is checked): a zod schema as it is, any
 * other Standard Schema (valibot, ArkType, ...) behind the same two methods, its issues as
 * `{ code, path, message }`. Verifying a token is synchronous: a schema that validates
 * asynchronously is refused there with an error that says so (a 500, never a pass).
 *
 * @example
 * const parser = claimsParserOf<Claims>(v.object({ sub: v.string(), roles: v.array(v.string()) }));
 * parser.safeParse(payload).success;
 */
export function claimsParserOf<Claims>(schema: StandardSchemaV1): z.ZodType<Claims> {
  if (isZodSchema(schema)) return schema as unknown as z.ZodType<Claims>;
  const standard = schema['~standard'];
  const parser = {
    safeParse(value: unknown) {
      // A copy: the verified payload is frozen, and a schema that drops undeclared keys in place
      // (ArkType's 'delete') would throw on it. Claims are a small JSON object.
      const result = standard.validate(structuredClone(value));
      if (result instanceof Promise) {
        throw new Error(`The claims schema (${standard.vendor}) validates asynchronously; verifying a token is synchronous: give defineAuthModule a synchronous claims schema`);
      }
      return parseResultOf(result);
    },
    async safeParseAsync(value: unknown) {
      return parseResultOf(await standard.validate(structuredClone(value)));
    },
  };
  // Only these two methods are read by the auth module's parts (auth-runtime, api keys, issuing, accounts).
  return parser as unknown as z.ZodType<Claims>;
}
