/**
 * Which side of a schema a conversion or a check reads: what it accepts (`input`, a request body
 * or query) or what it produces (`output`, a response).
 *
 * @example
 * const side: SchemaSide = 'output';
 */
export type SchemaSide = 'input' | 'output';

/**
 * A zod 4 schema's (or check's) internals as Tessera reads them (`schema._zod`): the definition,
 * the check bag, and zod's own records of optionality. Declared once, here: the response
 * serializer, the query-array detection and the OpenAPI conversion all read this one view. These
 * are zod's public internals (`_zod`), stable across zod 4 minor versions; a change shows up in
 * the serializer and conversion property tests, which use zod itself as the oracle.
 *
 * @example
 * const def = (schema as unknown as ZodNode)._zod.def;
 * if (def.type === 'object') Object.keys(def.shape ?? {});
 */
export interface ZodInternals {
  readonly def: ZodDef;
  readonly bag: ZodBag;
  readonly traits: Set<string>;
  /** zod's record of whether the schema accepts an absent value (`optional`, or `defaulted` with a default). */
  readonly optin?: string | undefined;
  /** zod's record of whether the schema may produce an absent value. */
  readonly optout?: string | undefined;
  readonly parent?: ZodNode | undefined;
  readonly values?: Set<unknown> | undefined;
  readonly pattern?: RegExp | undefined;
  readonly innerType?: ZodNode | undefined;
  readonly toJSONSchema?: (() => unknown) | undefined;
}
/**
 * Any zod 4 schema or check, seen through its internals.
 *
 * @example
 * const node = schema as unknown as ZodNode;
 */
export interface ZodNode {
  readonly _zod: ZodInternals;
}
/**
 * A schema's definition (`_zod.def`): its kind (`type`) and the parts that kind has.
 *
 * @example
 * const def: ZodDef = node._zod.def;
 */
export interface ZodDef {
  readonly type: string;
  readonly checks?: readonly ZodNode[] | undefined;
  readonly check?: string;
  readonly shape?: Record<string, ZodNode>;
  readonly catchall?: ZodNode | undefined;
  readonly element?: ZodNode;
  readonly options?: readonly ZodNode[];
  readonly inclusive?: boolean;
  readonly left?: ZodNode;
  readonly right?: ZodNode;
  readonly items?: readonly ZodNode[];
  readonly rest?: ZodNode | null;
  readonly keyType?: ZodNode;
  readonly valueType?: ZodNode;
  readonly mode?: string;
  readonly partial?: boolean;
  readonly innerType?: ZodNode;
  readonly in?: ZodNode;
  readonly out?: ZodNode;
  readonly defaultValue?: unknown;
  readonly catchValue?: (ctx: undefined) => unknown;
  readonly entries?: Record<string, string | number>;
  readonly values?: readonly unknown[];
  readonly value?: unknown;
  readonly minimum?: unknown;
  readonly maximum?: unknown;
  readonly length?: unknown;
  readonly size?: unknown;
  readonly format?: string;
  readonly pattern?: RegExp | undefined;
  readonly local?: boolean;
  readonly precision?: number | null;
}
/**
 * What a schema's checks collected (`_zod.bag`): bounds, format, patterns.
 *
 * @example
 * node._zod.bag.minimum;
 */
export interface ZodBag {
  readonly minimum?: number;
  readonly maximum?: number;
  readonly exclusiveMinimum?: number;
  readonly exclusiveMaximum?: number;
  readonly multipleOf?: number;
  readonly format?: string;
  readonly patterns?: Set<RegExp>;
}
