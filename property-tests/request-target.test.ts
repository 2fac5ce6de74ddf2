import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { incomingFromRequest } from '../lib/http/fetch-incoming.js';
import { parseRequestTarget } from '../lib/http/request-target.js';

// The oracle is the WHATWG URL parser: it is what builds `ctx.request.url` (new Request(...)), so
// the path and query the router matches must be exactly the ones it yields. One exception, on
// purpose: a backslash (not allowed in a URI) is refused where URL would turn it into `/`.
const pieces = ['a', 'Z', '0', '-', '_', '~', '.', '..', '/', '//', '?', '#', '%', '%2e', '%2E', '%2f', '%41', '%zz', ' ', '"', "'", '<', '>', '\\', '^', '`', '{', '}', '|', '!', '$', '&', '(', ')', '*', '+', ',', ';', '=', ':', '@', '[', ']', 'é', '\u2028', 'ü/', '/.', '/..', '/./'];
const fragment = fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).map((parts) => parts.join(''));

function viaUrl(href: string): { path: string; search: string } {
  const url = new URL(href);
  return { path: url.pathname, search: url.search === '' ? '' : url.search.slice(1) };
}

describe('parseRequestTarget agrees with the WHATWG URL parser', () => {
  it('origin-form: the path and query of `/<anything>`', () => {
    fc.assert(
      fc.property(fragment, (rest) => {
        const target = `/${rest}`;
        const parsed = parseRequestTarget(target);
        if (target.includes('\\')) {
          expect(parsed, target).toEqual({ kind: 'invalid', reason: 'The request target contains a backslash.' });
          return;
        }
        expect(parsed.kind).toBe('origin');
        if (parsed.kind !== 'origin') return;
        expect({ path: parsed.path, search: parsed.search }, target).toEqual(viaUrl(`http://host.test${target}`));
      }),
      { numRuns: 3000 },
    );
  });

  it('absolute-form: path, query and host of `<scheme>://<host><anything>`, the scheme in any case', () => {
    const scheme = fc.constantFrom('http', 'https', 'HTTP', 'Https', 'hTTp');
    const host = fc.constantFrom('a.test', 'A.Test', 'a.test:8080', 'a.test:80', 'a.test:443', 'localhost:3000', 'a.test:65536', 'a.test:0', 'a.test:08', 'a.test:', '127.0.0.1', '127.0.0.1:8080', '[::1]', 'user@a.test', 'xn--bcher-kva.test');
    fc.assert(
      fc.property(scheme, host, fc.constantFrom('', '/', '?', '#'), fragment, (s, h, joint, rest) => {
        const target = `${s}://${h}${joint}${rest}`;
        const parsed = parseRequestTarget(target);
        if (target.includes('\\')) {
          expect(parsed.kind, target).toBe('invalid');
          return;
        }
        let expected: URL;
        try {
          expected = new URL(target);
        } catch {
          expect(parsed.kind, target).toBe('invalid');
          return;
        }
        expect(parsed.kind, target).toBe('absolute');
        if (parsed.kind !== 'absolute') return;
        expect({ path: parsed.path, search: parsed.search, host: parsed.host, scheme: `${parsed.scheme}:` }, target).toEqual({
          ...viaUrl(target),
          host: expected.host,
          scheme: expected.protocol,
        });
      }),
      { numRuns: 3000 },
    );
  });

  it('never takes a path from inside the query: `http://host?x=/admin` is the path /', () => {
    fc.assert(
      fc.property(fragment, (rest) => {
        const parsed = parseRequestTarget(`http://host.test?${rest}`);
        if (rest.includes('\\')) expect(parsed.kind).toBe('invalid');
        else expect(parsed.kind === 'absolute' && parsed.path).toBe('/');
      }),
    );
  });

  it('refuses a backslash anywhere, never reading it as a path separator', () => {
    fc.assert(
      fc.property(fragment, fragment, fc.constantFrom('/', 'http://a.test/', 'HTTPS://a.test'), (before, after, start) => {
        const target = `${start}${before}\\${after}`;
        expect(parseRequestTarget(target).kind, target).toBe('invalid');
      }),
    );
  });
});

describe('the fetch path reads the same target as the Node path', () => {
  it('incomingFromRequest over a Request built from `/<anything>` routes the path and query parseRequestTarget gives the raw target', () => {
    fc.assert(
      fc.property(fragment, (rest) => {
        const target = `/${rest}`;
        let request: Request;
        try {
          request = new Request(`http://host.test${target}`);
        } catch {
          return; // a URL fetch itself refuses never reaches an app
        }
        const incoming = incomingFromRequest(request);
        const raw = parseRequestTarget(target);
        if (raw.kind !== 'origin') {
          // Only a backslash makes the raw target invalid; on the fetch path the runtime's URL
          // parser has turned one in the path into `/`, and one in the query is refused alike.
          expect(target.includes('\\'), target).toBe(true);
          if (new URL(request.url).search.includes('\\')) expect(incoming.invalid?.status, target).toBe(400);
          return;
        }
        expect({ path: incoming.path, search: incoming.search, invalid: incoming.invalid }, target).toEqual({ path: raw.path, search: raw.search, invalid: undefined });
      }),
      { numRuns: 3000 },
    );
  });
});
