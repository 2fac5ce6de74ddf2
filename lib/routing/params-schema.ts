import type { z } from 'zod';
import type { Schema } from '../context/route-info.js';
import type { PathParams } from './path.js';
import type { StandardSchemaV1 } from '../schema/standard-schema.js';
import type { SchemaOutput } from '../schema/schema-types.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * What a route's `params` option takes: a zod object whose keys are path parameters of the route
 * (`z.object`, `z.strictObject`, `z.looseObject`; not a transform of one), or another library's
 * Standard Schema producing an object (valibot's `v.object`, ArkType's `type({...})`), which is
 * given every path parameter.
 *
 * @example
 * const params: ParamsSchema = z.object({ id: z.coerce.number().int() });
 */
export type ParamsSchema = z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig> | StandardSchemaV1<unknown, object>;

/**
 * The path parameters a handler (or a WebSocket connection) sees: those of `Path` as strings,
 * and those the `params` schema `Pa` names as its output (`z.coerce.number()` gives a number).
 *
 * @example
 * type P = ParsedParams<'/tenants/:tenant/posts/:id', typeof IdParams>; // { tenant: string; id: number }
 */
export type ParsedParams<Path extends string, Pa> = Pa extends Schema ? Simplify<Omit<Simplify<PathParams<Path>>, keyof SchemaOutput<Pa>> & Readonly<SchemaOutput<Pa>>> : Simplify<PathParams<Path>>;
