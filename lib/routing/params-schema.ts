import type { z } from 'zod';
import type { Schema } from '../context/route-info.js';
import type { PathParams } from './path.js';

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * What a route's `params` option takes: a zod object whose keys are path parameters of the route
 * (`z.object`, `z.strictObject`, `z.looseObject`; not a transform of one).
 *
 * @example
 * const params: ParamsSchema = z.object({ id: z.coerce.number().int() });
 */
export type ParamsSchema = z.ZodObject<z.ZodRawShape, z.core.$ZodObjectConfig>;

/**
 * The path parameters a handler (or a WebSocket connection) sees: those of `Path` as strings,
 * and those the `params` schema `Pa` names as its output (`z.coerce.number()` gives a number).
 *
 * @example
 * type P = ParsedParams<'/tenants/:tenant/posts/:id', typeof IdParams>; // { tenant: string; id: number }
 */
export type ParsedParams<Path extends string, Pa> = Pa extends Schema ? Simplify<Omit<Simplify<PathParams<Path>>, keyof z.output<Pa>> & Readonly<z.output<Pa>>> : Simplify<PathParams<Path>>;
