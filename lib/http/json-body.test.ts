import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, post, silentLogger, type App } from '../index.js';
import { hasUtf8OrNoCharset } from './json-body.js';

// The issue-41 cases: bytes a lossy decoder would have stored as U+FFFD with a 201.
const MALFORMED: readonly (readonly [string, readonly number[]])[] = [
  ['FF FE (never in UTF-8)', [0xff, 0xfe]],
  ['C0 AF (an overlong "/")', [0xc0, 0xaf]],
  ['E2 82 (a truncated "€")', [0xe2, 0x82]],
  ['ED A0 80 (an encoded surrogate, U+D800)', [0xed, 0xa0, 0x80]],
];

/** `{"title":"a<bytes>b"}` as bytes. */
function titled(inner: readonly number[]): Uint8Array<ArrayBuffer> {
  const encoder = new TextEncoder();
  return new Uint8Array([...encoder.encode('{"title":"a'), ...inner, ...encoder.encode('b"}')]);
}

/** The same bytes as a stream with no declared length, in one-byte chunks: a chunked upload. */
function streamed(bytes: Uint8Array): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(controller) {
      if (at === bytes.length) controller.close();
      else controller.enqueue(bytes.subarray(at, ++at));
    },
  });
}

let app: App;
const stored: string[] = [];

beforeAll(async () => {
  const controller = defineController({
    name: 'Posts',
    routes: () => ({
      create: post('/posts', { body: z.object({ title: z.string() }), status: 201 }, (ctx) => {
        stored.push(ctx.body.title);
        return ctx.body;
      }),
    }),
  });
  app = await createApp(defineModule({ name: 'PostsModule', controllers: [controller] }), { logger: silentLogger });
});

async function send(body: BodyInit, contentType = 'application/json'): Promise<{ status: number; type: string | null; json: { title?: string; detail?: string } }> {
  const init = { method: 'POST', headers: { 'content-type': contentType }, body, duplex: 'half' } as RequestInit & { duplex: 'half' };
  const res = await app.request('/posts', init);
  return { status: res.status, type: res.headers.get('content-type'), json: (await res.json()) as { title?: string; detail?: string } };
}

const NOT_UTF8 = { status: 400, type: 'application/problem+json', detail: 'The body is not valid UTF-8.' };

describe('a JSON body that is not UTF-8 is refused with 400, never stored rewritten', () => {
  for (const [name, inner] of MALFORMED) {
    it(`refuses ${name} with a declared length`, async () => {
      const before = stored.length;
      const { status, type, json } = await send(titled(inner));
      expect({ status, type, detail: json.detail }, `${name} was not refused`).toEqual(NOT_UTF8);
      expect(stored.length, `${name} reached the handler`).toBe(before);
    });

    it(`refuses ${name} streamed with no declared length`, async () => {
      const { status, type, json } = await send(streamed(titled(inner)));
      expect({ status, type, detail: json.detail }, `${name} was not refused`).toEqual(NOT_UTF8);
    });
  }

  it('refuses a body that is not UTF-8 past the first 64 KiB too', async () => {
    const { status, json } = await send(titled([...new TextEncoder().encode('x'.repeat(70_000)), 0xff]));
    expect({ status, detail: json.detail }).toEqual({ status: 400, detail: NOT_UTF8.detail });
  });

  it('accepts a U+FFFD the client sent (EF BF BD) and stores it as it is', async () => {
    const { status, json } = await send(titled([0xef, 0xbf, 0xbd]));
    expect([status, json.title]).toEqual([201, 'a\uFFFDb']);
  });

  it('accepts UTF-8 beyond ASCII, streamed one byte at a time (sequences split across chunks)', async () => {
    const { status, json } = await send(streamed(titled([...new TextEncoder().encode('é€😀')])));
    expect([status, json.title]).toEqual([201, 'aé€😀b']);
  });

  it('ignores one leading UTF-8 byte order mark (RFC 8259 lets a parser ignore it)', async () => {
    const { status, json } = await send(new Uint8Array([0xef, 0xbb, 0xbf, ...titled([])]));
    expect([status, json.title]).toEqual([201, 'ab']);
  });
});

describe('a JSON body declared in a charset other than UTF-8 is answered 415', () => {
  it('refuses charset=latin1 with a non-ASCII byte (E9, "é" in Latin-1)', async () => {
    const { status, type, json } = await send(titled([0xe9]), 'application/json; charset=latin1');
    expect({ status, type }).toEqual({ status: 415, type: 'application/problem+json' });
    expect(json.detail).toBe('A JSON body must be UTF-8 (RFC 8259): send no charset, or charset=utf-8.');
  });

  it('refuses charset=latin1 even when the body is plain ASCII (the declaration is what is refused)', async () => {
    expect((await send(titled([]), 'application/json; charset=ISO-8859-1')).status).toBe(415);
  });

  it('refuses another charset on a +json type, quoted or not', async () => {
    expect((await send(titled([]), 'application/merge-patch+json; charset="utf-16"')).status).toBe(415);
  });

  it('accepts charset=utf-8 and utf8 in any case, quoted or not', async () => {
    for (const type of ['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/json; charset=utf8']) {
      expect((await send(titled([0xc3, 0xa9]), type)).status, type).toBe(201);
    }
  });
});

describe('hasUtf8OrNoCharset', () => {
  it('reads the charset parameter, not a "charset=" inside another quoted parameter', () => {
    expect(hasUtf8OrNoCharset('application/json; profile="a;charset=latin1"')).toBe(true);
    expect(hasUtf8OrNoCharset('application/json; profile="a;charset=utf-8"; charset=latin1')).toBe(false);
  });

  it('takes the first of two charset parameters, as content-type (and Express) do', () => {
    expect([hasUtf8OrNoCharset('application/json; charset=latin1; charset=utf-8'), hasUtf8OrNoCharset('application/json; charset=utf-8; charset=latin1')]).toEqual([false, true]);
  });

  it('accepts a type with no parameters, or parameters without a charset', () => {
    expect([hasUtf8OrNoCharset('application/json'), hasUtf8OrNoCharset('application/json; q=1')]).toEqual([true, true]);
  });
});
