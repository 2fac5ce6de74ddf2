import type { ControllerDefinition, PathParams, ProblemDetails, RouteMap, RouteTypes, RouteTypesOf, Schema, SchemaInput, SchemaOutput } from '../index.js';

/** What JSON.stringify leaves out of an object (and writes as `null` in an array). */
type Unwritten = undefined | symbol | ((...args: never[]) => unknown);
type Simplify<T> = { [K in keyof T]: T[K] } & {};
/** An array element: what JSON cannot write becomes `null`. */
type JsonElement<E> = E extends Unwritten ? null : Jsonified<E>;
/** A key JSON always writes / may leave out (its value may be undefined or a function) / never writes. */
type WrittenKey<T, K extends keyof T> = K extends symbol ? never : [Exclude<T[K], Unwritten>] extends [never] ? never : K;
type AlwaysWritten<T> = { [K in keyof T]-?: [Extract<T[K], Unwritten>] extends [never] ? WrittenKey<T, K> : never }[keyof T];

/**
 * JSON's view of a value: what `JSON.parse(JSON.stringify(value))` gives back, as a type, which is
 * what a typed client receives. `toJSON()` decides where there is one (a `Date` is a `string`);
 * a key whose value may be `undefined` (or a function) may be absent; `undefined`, functions and
 * symbols are left out of objects and `null` in arrays; a `Map` or `Set` is `{}`; a `bigint`,
 * which JSON cannot write (the server answers 500), is `never`. Numbers stay `number`, though
 * `NaN` and `Infinity` arrive as `null` (a response schema's `z.number()` refuses them).
 *
 * @example
 * type Wire = Jsonified<{ at: Date; note?: string; tags: Set<string> }>; // { at: string; note?: string; tags: {} }
 */
export type Jsonified<T> = T extends string | number | boolean | null
  ? T
  : T extends bigint
    ? never
    : T extends { toJSON(): infer J }
      ? Jsonified<J>
      : T extends Unwritten
        ? never
        : T extends ReadonlyMap<unknown, unknown> | ReadonlySet<unknown> | WeakMap<object, unknown> | WeakSet<object>
          ? Record<string, never>
          : T extends readonly unknown[]
            ? { -readonly [I in keyof T]: JsonElement<T[I]> }
            : T extends object
              ? Simplify<
                  { -readonly [K in keyof T as K extends AlwaysWritten<T> ? K : never]-?: Jsonified<T[K]> } & {
                    -readonly [K in keyof T as K extends AlwaysWritten<T> ? never : WrittenKey<T, K>]?: Jsonified<T[K]>;
                  }
                >
              : unknown;

/**
 * The data of a successful answer as it arrives: the JSON form ({@link Jsonified}) of the response
 * schema's output side (what the server's serialiser wrote), else of the handler's result; and
 * `undefined` (a 204) where the handler may return undefined.
 */
export type ClientData<S, R> = (S extends Schema ? Jsonified<SchemaOutput<S>> : Jsonified<Exclude<R, Response | undefined>>) | (undefined extends R ? undefined : never);

/**
 * What a client call resolves to: never a thrown HTTP error, but `ok` with the typed `data`, or not
 * `ok` with the problem+json body.
 *
 * @example
 * const answer = await client.get({ params: { id: '1' } });
 * if (answer.ok) answer.data.title; else answer.problem.status;
 */
export type ClientAnswer<D> =
  | { readonly ok: true; readonly status: number; readonly data: D; readonly response: Response }
  | { readonly ok: false; readonly status: number; readonly problem: ProblemDetails & Readonly<Record<string, unknown>>; readonly response: Response };

type IsEmpty<T> = [keyof T] extends [never] ? true : false;
/** A field that may be left out when its type accepts undefined. */
type Field<K extends string, V> = undefined extends V ? { readonly [P in K]?: V } : { readonly [P in K]: V };

/** A value the wire can put in a path: what a schema taking anything (`unknown`, as `z.coerce` does) accepts here. */
type WireParam<T> = unknown extends T ? string | number | boolean : T;
/** One path parameter as a call gives it: the `params` schema's input side where it names it, else a string or number. */
type ParamValue<Pa, K> = Pa extends Schema ? (K extends keyof SchemaInput<Pa> ? WireParam<SchemaInput<Pa>[K]> : string | number) : string | number;

/**
 * The input of one call: `params` when the path has any (on the route's `params` schema's input
 * side where it names them: `z.coerce.number()` takes a string, number or boolean), `body` and
 * `query` on their input side, `headers` always optional.
 */
export type CallInput<Path extends string, B, Q, Pa = undefined> = (IsEmpty<PathParams<Path>> extends true ? unknown : { readonly params: { readonly [K in keyof PathParams<Path>]: ParamValue<Pa, K> } }) &
  (B extends Schema ? Field<'body', SchemaInput<B>> : unknown) &
  (Q extends Schema ? Field<'query', SchemaInput<Q>> : unknown) & { readonly headers?: Readonly<Record<string, string>> };

type NeedsInput<I> = {} extends I ? false : true;

/** One route's method on the client. */
export type RouteCall<T, Prefix extends string> =
  T extends RouteTypes<infer _M, infer P, infer B, infer Q, infer S, infer R, infer Pa>
    ? NeedsInput<CallInput<`${Prefix}${P}`, B, Q, Pa>> extends true
      ? (input: CallInput<`${Prefix}${P}`, B, Q, Pa>) => Promise<ClientAnswer<ClientData<S, R>>>
      : (input?: CallInput<`${Prefix}${P}`, B, Q, Pa>) => Promise<ClientAnswer<ClientData<S, R>>>
    : never;

/**
 * The client of a controller built with `defineController`: one method per route name.
 *
 * @example
 * type BlogClient = ClientOf<typeof postsController>; // { list(...): ..., get(...): ..., ... }
 */
export type ClientOf<C> = C extends ControllerDefinition<infer Routes extends RouteMap, infer Prefix extends string> ? { readonly [K in keyof Routes]: RouteCall<RouteTypesOf<Routes[K]>, Prefix> } : never;

/** Several controllers as one client (route names must differ). */
export type ClientOfAll<Cs extends readonly unknown[]> = Cs extends readonly [infer First, ...infer Rest] ? ClientOf<First> & ClientOfAll<Rest> : unknown;

/**
 * The client of a class-style controller (`@Controller`): one method per method of the class.
 * Parameter decorators (`@Param`, `@Body`) do not reach TypeScript's types, so inputs are loose
 * and `data` is `unknown`; define the controller with `defineController` for full types.
 *
 * @example
 * type Client = ClassClientOf<typeof PostsController>; // { list(input?): Promise<ClientAnswer<unknown>>, ... }
 */
export type ClassClientOf<C extends abstract new (...args: never[]) => unknown> = {
  readonly [K in keyof InstanceType<C> as InstanceType<C>[K] extends (...args: never[]) => unknown ? K : never]: (input?: {
    readonly params?: Readonly<Record<string, string | number | boolean>>;
    readonly query?: Readonly<Record<string, unknown>>;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
  }) => Promise<ClientAnswer<unknown>>;
};
