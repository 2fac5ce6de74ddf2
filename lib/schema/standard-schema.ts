/**
 * Standard Schema v1 (https://standardschema.dev), the one interface zod 4, valibot, ArkType,
 * Effect Schema and others implement (`schema['~standard']`). A local copy of the spec's types,
 * so the package needs no dependency for them and its declarations import nothing at the
 * consumer; standard-schema.types.test.ts checks it against `@standard-schema/spec` both ways.
 *
 * @example
 * const accepts = (schema: StandardSchemaV1) => schema['~standard'].vendor; // 'zod', 'valibot', 'arktype', ...
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaV1.Props<Input, Output>;
}

/** The parts of {@link StandardSchemaV1}, named as the spec names them. */
export declare namespace StandardSchemaV1 {
  /** What `schema['~standard']` holds. */
  interface Props<Input = unknown, Output = Input> {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown, options?: Options | undefined) => Result<Output> | Promise<Result<Output>>;
    readonly types?: Types<Input, Output> | undefined;
  }
  /** What `validate` answers. */
  type Result<Output> = SuccessResult<Output> | FailureResult;
  /** Success: the schema's output. */
  interface SuccessResult<Output> {
    readonly value: Output;
    readonly issues?: undefined;
  }
  /** Options of `validate` (vendor-specific ones only). */
  interface Options {
    readonly libraryOptions?: Record<string, unknown> | undefined;
  }
  /** Failure: why. */
  interface FailureResult {
    readonly issues: ReadonlyArray<Issue>;
  }
  /** One reason for a failure; a path segment is a key or `{ key }`. */
  interface Issue {
    readonly message: string;
    readonly path?: ReadonlyArray<PropertyKey | PathSegment> | undefined;
  }
  /** A path segment in object form. */
  interface PathSegment {
    readonly key: PropertyKey;
  }
  /** The schema's types, present at compile time only. */
  interface Types<Input = unknown, Output = Input> {
    readonly input: Input;
    readonly output: Output;
  }
  /** What the schema accepts. */
  type InferInput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['input'];
  /** What the schema produces. */
  type InferOutput<Schema extends StandardSchemaV1> = NonNullable<Schema['~standard']['types']>['output'];
}
