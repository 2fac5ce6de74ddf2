import type { z } from 'zod';
import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * What a schema produces: `z.output` for a zod schema (read directly, as precise and as cheap
 * for the compiler as before), the Standard Schema output type for any other library's.
 *
 * @example
 * type Post = SchemaOutput<typeof PostSchema>;
 */
export type SchemaOutput<S> = S extends z.ZodType ? z.output<S> : S extends StandardSchemaV1 ? StandardSchemaV1.InferOutput<S> : never;

/**
 * What a schema accepts: `z.input` for a zod schema, the Standard Schema input type otherwise.
 *
 * @example
 * type CreatePostInput = SchemaInput<typeof CreatePost>;
 */
export type SchemaInput<S> = S extends z.ZodType ? z.input<S> : S extends StandardSchemaV1 ? StandardSchemaV1.InferInput<S> : never;
