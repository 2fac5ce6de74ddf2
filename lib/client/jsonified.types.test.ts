import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Jsonified } from './index.js';

// What Jsonified<T> says must be what JSON.parse(JSON.stringify(value)) gives back. Each case
// checks the type (by `npm run typecheck`) and the run-time value of the same literal.
const roundTrip = <T>(value: T): Jsonified<T> => JSON.parse(JSON.stringify(value)) as Jsonified<T>;

describe('Jsonified: the JSON form of a value, as a type', () => {
  it('types a Date as the string toJSON() writes', () => {
    const value = roundTrip({ at: new Date(0) });
    expectTypeOf(value).toEqualTypeOf<{ at: string }>();
    expect(typeof value.at).toBe('string');
  });

  it('follows toJSON() of any class', () => {
    class Money {
      constructor(readonly cents: number) {}
      toJSON(): string {
        return `${this.cents / 100} EUR`;
      }
    }
    const value = roundTrip({ price: new Money(150) });
    expectTypeOf(value).toEqualTypeOf<{ price: string }>();
    expect(value.price).toBe('1.5 EUR');
  });

  it('makes a key whose value may be undefined optional, and drops one that is always undefined or a function', () => {
    const source: { note: string | undefined; gone: undefined; fn: () => void; kept: number } = { note: undefined, gone: undefined, fn: () => undefined, kept: 1 };
    const value = roundTrip(source);
    expectTypeOf(value).toEqualTypeOf<{ kept: number; note?: string }>();
    expect(Object.keys(value)).toEqual(['kept']);
  });

  it('writes undefined and functions in arrays as null, and keeps tuples', () => {
    const value = roundTrip({ list: [1, undefined] as (number | undefined)[], pair: ['a', 1] as [string, number] });
    expectTypeOf(value).toEqualTypeOf<{ list: (number | null)[]; pair: [string, number] }>();
    expect(value.list).toEqual([1, null]);
  });

  it('writes a Map and a Set as an empty object', () => {
    const value = roundTrip({ tags: new Set(['a']), byId: new Map([['1', 1]]) });
    expectTypeOf(value).toEqualTypeOf<{ tags: Record<string, never>; byId: Record<string, never> }>();
    expect(value).toEqual({ tags: {}, byId: {} });
  });

  it('types a bigint as never: JSON.stringify cannot write one', () => {
    expectTypeOf<Jsonified<{ n: bigint }>>().toEqualTypeOf<{ n: never }>();
    expect(() => JSON.stringify({ n: 1n })).toThrow(TypeError);
  });

  it('leaves strings, numbers, booleans, null and nested objects as they are, without readonly', () => {
    const value = roundTrip({ a: 'x', b: 1, c: true, d: null, e: { f: ['g'] } } as const);
    expectTypeOf(value).toEqualTypeOf<{ a: 'x'; b: 1; c: true; d: null; e: { f: ['g'] } }>();
    expect(value.e.f).toEqual(['g']);
  });
});
