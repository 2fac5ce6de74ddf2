// Type-level tests: `npm test` type-checks this file. The local copy of the Standard Schema
// interface must accept what the spec's accepts, and the reverse, so that the package's
// declarations (which name only the copy) take every library's schemas.
import { describe, expectTypeOf, it } from 'vitest';
import type { StandardSchemaV1 as Spec } from '@standard-schema/spec';
import { z } from 'zod';
import * as v from 'valibot';
import { type } from 'arktype';
import type { StandardSchemaV1 } from './standard-schema.js';
import type { SchemaInput, SchemaOutput } from './schema-types.js';

describe('the local Standard Schema interface', () => {
  it('is assignable both ways with the spec package', () => {
    expectTypeOf<Spec<{ a: string }, { a: number }>>().toExtend<StandardSchemaV1<{ a: string }, { a: number }>>();
    expectTypeOf<StandardSchemaV1<{ a: string }, { a: number }>>().toExtend<Spec<{ a: string }, { a: number }>>();
    expectTypeOf<Spec.Issue>().toEqualTypeOf<StandardSchemaV1.Issue>();
    expectTypeOf<Spec.Result<number>>().toEqualTypeOf<StandardSchemaV1.Result<number>>();
  });

  it('is implemented by zod, valibot and ArkType schemas', () => {
    expectTypeOf(z.object({ a: z.string() })).toExtend<StandardSchemaV1>();
    expectTypeOf(v.object({ a: v.string() })).toExtend<StandardSchemaV1>();
    expectTypeOf(type({ a: 'string' })).toExtend<StandardSchemaV1>();
  });

  it('infers the same input and output as the spec does', () => {
    const Valibot = v.object({ n: v.pipe(v.string(), v.transform(Number)) });
    expectTypeOf<SchemaInput<typeof Valibot>>().toEqualTypeOf<Spec.InferInput<typeof Valibot>>();
    expectTypeOf<SchemaOutput<typeof Valibot>>().toEqualTypeOf<{ n: number }>();
    const Ark = type({ n: 'string.integer.parse' });
    expectTypeOf<SchemaOutput<typeof Ark>>().toEqualTypeOf<Spec.InferOutput<typeof Ark>>();
    const Zod = z.object({ n: z.coerce.number(), d: z.string().default('') });
    expectTypeOf<SchemaOutput<typeof Zod>>().toEqualTypeOf<z.output<typeof Zod>>();
    expectTypeOf<SchemaInput<typeof Zod>>().toEqualTypeOf<z.input<typeof Zod>>();
  });
});
