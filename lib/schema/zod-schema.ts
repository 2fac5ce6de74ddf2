import type { z } from 'zod';
import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * A zod 4 schema: the kind Tessera reads beyond Standard Schema (the compiled response
 * serializer, query lists, path-parameter keys, the fast OpenAPI conversion).
 *
 * @example
 * const schema: ZodSchema = z.object({ title: z.string() });
 */
export type ZodSchema = z.ZodType;

/**
 * Whether `schema` is a zod 4 schema (zod's internals and `safeParse`, vendor `zod`), rather than
 * another Standard Schema (valibot, ArkType, ...). zod 3 and zod mini schemas are not: they are
 * served through `~standard` like any other library's.
 *
 * @example
 * if (isZodSchema(route.body)) z.toJSONSchema(route.body); else convertOther(route.body);
 */
export function isZodSchema(schema: StandardSchemaV1): schema is StandardSchemaV1 & ZodSchema {
  const candidate = schema as Partial<{ _zod: unknown; safeParse: unknown }>;
  return schema['~standard'].vendor === 'zod' && typeof candidate._zod === 'object' && candidate._zod !== null && typeof candidate.safeParse === 'function';
}

/**
 * The library a schema comes from, as it names itself (`'zod'`, `'valibot'`, `'arktype'`, ...).
 *
 * @example
 * schemaVendor(v.object({})); // 'valibot'
 */
export function schemaVendor(schema: StandardSchemaV1): string {
  return schema['~standard'].vendor;
}
