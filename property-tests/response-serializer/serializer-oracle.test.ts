// The compiled response serialiser against its oracle, JSON.stringify(schema.parse(value)): for
// every schema and value, either both refuse the value or both write exactly the same text.
// Two sources of cases: schemas of the kinds the serialiser compiles, with values that mostly
// conform (plus undeclared keys, which must be stripped) and sometimes do not; and the broad
// schema arbitrary of the OpenAPI properties (everything zod has, left to zod) with JSON values.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileResponseSerializer } from '../../lib/schema/response-serializer.js';
import { buildCase, schemaCase } from '../openapi/zod-schema-arbitraries.js';

type Spec =
  | { k: 'string' | 'number' | 'boolean' | 'null' | 'date' | 'email' | 'minString' | 'int' | 'union' | 'unknown' }
  | { k: 'enum'; values: string[] }
  | { k: 'literal'; values: (string | number | boolean | null)[] }
  | { k: 'object'; shape: [string, Spec][] }
  | { k: 'array'; of: Spec }
  | { k: 'optional' | 'nullable' | 'readonly'; of: Spec }
  | { k: 'default'; of: Spec; value: string };

const KEYS = ['id', 'name', 'tags', 'a', 'b', 'x-y', 'with space', '0', 'constructor', 'é'];
const LEAVES: Spec['k'][] = ['string', 'number', 'boolean', 'null', 'date', 'email', 'minString', 'int', 'union', 'unknown'];

const specArb: fc.Arbitrary<Spec> = fc.letrec<{ spec: Spec }>((tie) => ({
  spec: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(...LEAVES).map((k) => ({ k }) as Spec),
    fc.uniqueArray(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }).map((values): Spec => ({ k: 'enum', values })),
    fc.array(fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null)), { minLength: 1, maxLength: 3 }).map((values): Spec => ({ k: 'literal', values })),
    fc.uniqueArray(fc.tuple(fc.constantFrom(...KEYS), tie('spec')), { maxLength: 4, selector: ([key]) => key }).map((shape): Spec => ({ k: 'object', shape })),
    tie('spec').map((of): Spec => ({ k: 'array', of })),
    fc.tuple(fc.constantFrom('optional', 'nullable', 'readonly') as fc.Arbitrary<'optional' | 'nullable' | 'readonly'>, tie('spec')).map(([k, of]): Spec => ({ k, of })),
    fc.tuple(tie('spec'), fc.string({ maxLength: 4 })).map(([of, value]): Spec => ({ k: 'default', of: { k: 'string' }, value: of.k === 'string' ? value : `${value}!` })),
  ),
})).spec;

function build(spec: Spec): z.ZodType {
  switch (spec.k) {
    case 'string': return z.string();
    case 'number': return z.number();
    case 'boolean': return z.boolean();
    case 'null': return z.null();
    case 'date': return z.date();
    case 'email': return z.email();
    case 'minString': return z.string().min(2);
    case 'int': return z.number().int();
    case 'union': return z.union([z.string(), z.number()]);
    case 'unknown': return z.unknown();
    case 'enum': return z.enum(spec.values as [string, ...string[]]);
    case 'literal': return z.literal(spec.values as [string, ...string[]]);
    case 'object': return z.object(Object.fromEntries(spec.shape.map(([key, part]) => [key, build(part)])));
    case 'array': return z.array(build(spec.of));
    case 'optional': return build(spec.of).optional();
    case 'nullable': return build(spec.of).nullable();
    case 'readonly': return build(spec.of).readonly();
    case 'default': return z.string().default(spec.value);
  }
}

const TEXT = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 4 }), fc.constantFrom('"', '\\', '\n', '\u2028', '\ud800', 'a@b.test'));
const NOISE = fc.oneof(fc.jsonValue({ maxDepth: 1 }), fc.constant(undefined), fc.date({ noInvalidDate: false }), fc.double());

/** Values that mostly conform to `spec`, with undeclared keys on objects. */
function valueArb(spec: Spec): fc.Arbitrary<unknown> {
  const conforming = ((): fc.Arbitrary<unknown> => {
    switch (spec.k) {
      case 'string': case 'minString': return TEXT;
      case 'email': return fc.constantFrom('a@b.test', 'x.y@example.org', 'not-an-email');
      case 'number': return fc.oneof(fc.integer(), fc.double(), fc.constantFrom(-0, 1e21, 1e-7));
      case 'int': return fc.oneof(fc.integer(), fc.constantFrom(0.5, 2 ** 60));
      case 'boolean': return fc.boolean();
      case 'null': return fc.constant(null);
      case 'date': return fc.date({ noInvalidDate: false });
      case 'union': return fc.oneof(TEXT, fc.integer(), fc.boolean());
      case 'unknown': return NOISE;
      case 'enum': case 'literal': return fc.constantFrom<unknown>(...spec.values);
      case 'object':
        return fc.tuple(
          fc.tuple(...spec.shape.map(([key, part]) => fc.tuple(fc.constant(key), valueArb(part), fc.constantFrom('value', 'value', 'undefined', 'absent')))),
          fc.dictionary(fc.constantFrom('secret', 'passwordHash', '__extra', 'id2'), NOISE, { maxKeys: 2 }),
        ).map(([entries, extra]) => {
          const out: Record<string, unknown> = { ...extra };
          // A key may hold a value, hold undefined, or be absent: zod tells the last two apart.
          for (const [key, value, how] of entries) if (how !== 'absent') out[key] = how === 'value' ? value : undefined;
          return out;
        });
      case 'array': return fc.array(valueArb(spec.of), { maxLength: 3 });
      case 'optional': return fc.option(valueArb(spec.of), { nil: undefined });
      case 'nullable': return fc.option(valueArb(spec.of), { nil: null });
      case 'readonly': return valueArb(spec.of);
      case 'default': return fc.option(TEXT, { nil: undefined });
    }
  })();
  return fc.oneof({ weight: 6, arbitrary: conforming }, { weight: 1, arbitrary: NOISE });
}

/** What happens to a value: the text written, or 'refused'. */
function outcome(run: () => string | undefined): string | undefined {
  try {
    return run();
  } catch {
    return 'refused';
  }
}

function expectOracle(schema: z.ZodType, value: unknown): void {
  const expected = outcome(() => JSON.stringify(schema.parse(value)));
  const actual = outcome(() => compileResponseSerializer(schema)(value));
  expect(actual).toBe(expected);
}

describe('response serialiser (property)', () => {
  it('writes JSON.stringify(schema.parse(value)), or refuses with it, on compiled kinds', () => {
    const caseArb = specArb.chain((spec) => fc.tuple(fc.constant(spec), valueArb(spec)));
    fc.assert(
      fc.property(caseArb, ([spec, value]) => expectOracle(build(spec), value)),
      { numRuns: 3000 },
    );
  });

  it('agrees with the oracle on every zod kind, with JSON values', () => {
    fc.assert(
      fc.property(schemaCase({ unsupported: true, maxDepth: 3 }), fc.jsonValue({ maxDepth: 3 }), (c, value) => {
        let schema: z.ZodType;
        try {
          schema = buildCase(c).root;
        } catch {
          return; // a schema zod itself refuses to build
        }
        expectOracle(schema, value);
      }),
      { numRuns: 1500 },
    );
  });
});
