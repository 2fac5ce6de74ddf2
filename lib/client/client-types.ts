import type { z } from 'zod';
import type { ControllerDefinition, PathParams, ProblemDetails, RouteMap, RouteTypes, RouteTypesOf, Schema } from '../internal.js';

/** JSON's view of a value: what `JSON.parse(JSON.stringify(value))` gives back, as a type. */
export type Jsonified<T> = T extends string | number | boolean | null
  ? T
  : T extends Date
    ? string
    : T extends undefined | ((...args: never[]) => unknown) | symbol
      ? never
      : T extends readonly (infer U)[]
        ? Jsonified<U>[]
        : T extends object
          ? { [K in keyof T as T[K] extends undefined | ((...args: never[]) => unknown) ? never : K]: Jsonified<T[K]> }
          : unknown;

/** The data of a successful answer: the response schema's output side, else the handler's result as JSON. */
export type ClientData<S, R> = S extends Schema ? z.output<S> : Jsonified<Exclude<R, Response | undefined>> | (undefined extends R ? undefined : never);

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

/** The input of one call: `params` when the path has any, `body` and `query` on their input side, `headers` always optional. */
export type CallInput<Path extends string, B, Q> = (IsEmpty<PathParams<Path>> extends true ? unknown : { readonly params: { readonly [K in keyof PathParams<Path>]: string | number } }) &
  (B extends Schema ? Field<'body', z.input<B>> : unknown) &
  (Q extends Schema ? Field<'query', z.input<Q>> : unknown) & { readonly headers?: Readonly<Record<string, string>> };

type NeedsInput<I> = {} extends I ? false : true;

/** One route's method on the client. */
export type RouteCall<T, Prefix extends string> =
  T extends RouteTypes<infer _M, infer P, infer B, infer Q, infer S, infer R>
    ? NeedsInput<CallInput<`${Prefix}${P}`, B, Q>> extends true
      ? (input: CallInput<`${Prefix}${P}`, B, Q>) => Promise<ClientAnswer<ClientData<S, R>>>
      : (input?: CallInput<`${Prefix}${P}`, B, Q>) => Promise<ClientAnswer<ClientData<S, R>>>
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
    readonly params?: Readonly<Record<string, string | number>>;
    readonly query?: Readonly<Record<string, unknown>>;
    readonly body?: unknown;
    readonly headers?: Readonly<Record<string, string>>;
  }) => Promise<ClientAnswer<unknown>>;
};
