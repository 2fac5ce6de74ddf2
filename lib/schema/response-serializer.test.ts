import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { compileResponseSerializer } from './response-serializer.js';
import { ResponseMismatchError } from './response-mismatch.js';

const Author = z.object({ id: z.string(), name: z.string() });
const Post = z.object({
  id: z.string(),
  title: z.string(),
  views: z.number(),
  draft: z.boolean(),
  tags: z.array(z.string()),
  author: Author,
  publishedAt: z.date().nullable(),
  summary: z.string().optional(),
  status: z.enum(['draft', 'live']).default('draft'),
});

const post = {
  id: 'p1',
  title: 'Hello',
  views: 3,
  draft: false,
  tags: ['a'],
  author: { id: 'u1', name: 'Alice', passwordHash: '$argon2id$secret' },
  publishedAt: new Date('2026-11-22T10:00:00Z'),
  tenantSecret: 'do-not-send',
};

function mismatch(run: () => unknown): ResponseMismatchError {
  try {
    run();
  } catch (error) {
    if (error instanceof ResponseMismatchError) return error;
    throw error;
  }
  throw new Error('expected a ResponseMismatchError, nothing was thrown');
}

describe('compileResponseSerializer', () => {
  it('writes what JSON.stringify(schema.parse(value)) writes', () => {
    const serialize = compileResponseSerializer(Post);
    expect(serialize(post)).toBe(JSON.stringify(Post.parse(post)));
  });

  it('strips undeclared fields at every depth', () => {
    const text = compileResponseSerializer(Post)(post) ?? '';
    expect(text, 'an undeclared field was sent').not.toContain('do-not-send');
    expect(text, 'an undeclared nested field was sent').not.toContain('argon2id');
  });

  it('writes a default for a missing defaulted field and omits a missing optional one', () => {
    expect(JSON.parse(compileResponseSerializer(Post)(post) ?? '')).toMatchObject({ status: 'draft' });
    expect(JSON.parse(compileResponseSerializer(Post)(post) ?? '')).not.toHaveProperty('summary');
  });

  it.each([
    ['a quote and a backslash', 'say "hi" \\ bye'],
    ['a control character', 'line\nbreak\u0001'],
    ['non-ASCII text', 'Zoë 😀 日本'],
    ['a lone surrogate', 'broken \ud800 pair'],
    ['the line separators JSON allows raw', 'a\u2028b\u2029c'],
  ])('escapes %s exactly as JSON.stringify does', (_name, text) => {
    expect(compileResponseSerializer(z.object({ text: z.string() }))({ text })).toBe(JSON.stringify({ text }));
  });

  it('writes numbers as JSON.stringify does, and refuses NaN and Infinity as zod does', () => {
    const serialize = compileResponseSerializer(z.array(z.number()));
    expect(serialize([0, -0, 1e21, 1e-7, -2.5])).toBe(JSON.stringify([0, -0, 1e21, 1e-7, -2.5]));
    expect(() => serialize([Number.NaN])).toThrow(ResponseMismatchError);
    expect(() => serialize([Number.POSITIVE_INFINITY])).toThrow(ResponseMismatchError);
  });

  it('leaves checks, formats and unions to zod', () => {
    const serialize = compileResponseSerializer(z.object({ email: z.email(), n: z.number().int().min(1), v: z.union([z.string(), z.number()]) }));
    expect(serialize({ email: 'a@b.test', n: 2, v: 3, extra: 1 })).toBe('{"email":"a@b.test","n":2,"v":3}');
    expect(mismatch(() => serialize({ email: 'not an email', n: 2, v: 3 })).paths).toEqual(['$.email']);
    expect(mismatch(() => serialize({ email: 'a@b.test', n: 0, v: 3 })).paths).toEqual(['$.n']);
  });

  it('applies transforms as zod does', () => {
    const serialize = compileResponseSerializer(z.object({ name: z.string().transform((s) => s.toUpperCase()) }));
    expect(serialize({ name: 'ada' })).toBe('{"name":"ADA"}');
  });

  it('names the path of a mismatch, never the value', () => {
    const error = mismatch(() => compileResponseSerializer(Post, 'Posts.show')({ ...post, author: { id: 'u1', name: 42 }, tags: ['a', 7] }));
    expect(error.paths).toEqual(['$.tags[1]']);
    expect(error.message).toContain('Posts.show');
    expect(error.message).toContain('$.tags[1]');
    expect(error.message, 'the refused value is in the message').not.toContain('7');
    expect(error.code).toBe('RESPONSE_MISMATCH');
  });

  it.each([
    ['a missing required field', { ...post, title: undefined }],
    ['an array where an object is declared', { ...post, author: [] }],
    ['null where an object is declared', { ...post, author: null }],
    ['a string where a date is declared', { ...post, publishedAt: '2026-11-22' }],
    ['an invalid date', { ...post, publishedAt: new Date(Number.NaN) }],
    ['a value outside the enum', { ...post, status: 'deleted' }],
  ])('refuses %s', (_name, value) => {
    expect(() => compileResponseSerializer(Post)(value)).toThrow(ResponseMismatchError);
    expect(() => Post.parse(value), 'zod accepts what the serialiser refused').toThrow();
  });

  it('compiles a recursive schema once and writes it as zod does', () => {
    const Node = z.object({
      name: z.string(),
      get left() {
        return Node.optional();
      },
      get right() {
        return Node.optional();
      },
    });
    const tree = { name: 'root', left: { name: 'l', secret: 1, right: { name: 'lr' } }, right: { name: 'r' } };
    const started = performance.now();
    const serialize = compileResponseSerializer(Node);
    expect(performance.now() - started, 'compiling a recursive schema blew up').toBeLessThan(1000);
    expect(serialize(tree)).toBe(JSON.stringify(Node.parse(tree)));
  });

  it('writes nothing for a top-level value JSON cannot write', () => {
    expect(compileResponseSerializer(z.any())(() => 1)).toBeUndefined();
  });
});
