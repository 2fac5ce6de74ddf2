/**
 * A request target (RFC 9112 §3.2) read the way a WHATWG `URL` reads it, so that the path the
 * router matches is exactly the path a handler sees in `ctx.request.url`:
 *
 * - `origin`: `/path?query` (the usual form);
 * - `absolute`: `http://host/path?query` (what clients send to proxies; the scheme in any case);
 * - `asterisk`: `*` (only meaningful for `OPTIONS`), `authority`: `host:port` (only for `CONNECT`);
 * - `invalid`: anything else, or an absolute target without a host (`http:///admin`).
 *
 * @example
 * parseRequestTarget('/posts?page=2');                // { kind: 'origin', path: '/posts', search: 'page=2' }
 * parseRequestTarget('http://a.test?next=/admin');    // { kind: 'absolute', path: '/', search: 'next=/admin', scheme: 'http', host: 'a.test' }
 */
export type RequestTarget =
  | { readonly kind: 'origin'; readonly path: string; readonly search: string }
  | { readonly kind: 'absolute'; readonly path: string; readonly search: string; readonly scheme: 'http' | 'https'; readonly host: string }
  | { readonly kind: 'asterisk' }
  | { readonly kind: 'authority' }
  | { readonly kind: 'invalid'; readonly reason: string };

/**
 * Bytes a WHATWG URL leaves untouched in a path and in a query: unreserved, sub-delims, `:`,
 * `@`, `/` and `%`. Anything else (space, `"`, `<`, `>`, `` ` ``, `{`, `}`, `\`, `^`, `|`,
 * non-ASCII, controls) is percent-encoded or rewritten by `URL`, so such a target takes the
 * slow path and is read by `URL` itself. `'` is encoded in the query of http(s) URLs only.
 */
const PATH_SAFE = new Uint8Array(128);
const QUERY_SAFE = new Uint8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&'()*+,;=:@/%") PATH_SAFE[c.charCodeAt(0)] = 1;
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~!$&()*+,;=:@/%?') QUERY_SAFE[c.charCodeAt(0)] = 1;
const HOST_SAFE = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyz0123456789-.:') HOST_SAFE[c.charCodeAt(0)] = 1;

const isLetter = (c: number): boolean => c >= 97 && c <= 122;

const SLASH = 47;
const QUESTION = 63;
const DOT = 46;
const PERCENT = 37;

/**
 * Scans a path-and-query that starts at `start` with `/`. Returns the raw slices when nothing in
 * it would be changed by URL parsing, or undefined when `URL` must read it (a dot segment, a
 * `%2e`, a character URL encodes, a fragment).
 */
function scanPathAndQuery(target: string, start: number): { kind: 'origin'; path: string; search: string } | undefined {
  const length = target.length;
  let i = start;
  for (; i < length; i++) {
    const c = target.charCodeAt(i);
    if (c === QUESTION) break;
    if (c >= 128 || PATH_SAFE[c] === 0) return undefined;
    // `/.` may begin a dot segment and `%2e` is a dot to URL: rare, so let URL resolve them.
    if (c === DOT && target.charCodeAt(i - 1) === SLASH) return undefined;
    if (c === PERCENT && target.charCodeAt(i + 1) === 50 /* 2 */ && (target.charCodeAt(i + 2) | 32) === 101 /* e */) return undefined;
  }
  const pathEnd = i;
  for (i = pathEnd + 1; i < length; i++) {
    const c = target.charCodeAt(i);
    if (c >= 128 || QUERY_SAFE[c] === 0) return undefined;
  }
  // Built as the origin-form result itself: this runs once per request, one object is enough.
  return pathEnd === length
    ? { kind: 'origin', path: start === 0 ? target : target.slice(start), search: '' }
    : { kind: 'origin', path: target.slice(start, pathEnd), search: target.slice(pathEnd + 1) };
}

/** Path and query as `URL` reads them (the slow path). */
function fromUrl(url: URL): { path: string; search: string } {
  return { path: url.pathname, search: url.search === '' ? '' : url.search.slice(1) };
}

const ORIGIN_BASE = 'http://target.invalid';

/**
 * A backslash is not allowed anywhere in a URI (RFC 3986), and `URL` reads one in a path as `/`:
 * `/posts\\..\\openapi.json` would become `/openapi.json`, a route other than the one a front
 * proxy filtering on the raw target saw. Refused, never normalised.
 */
const BACKSLASH: RequestTarget = Object.freeze({ kind: 'invalid', reason: 'The request target contains a backslash.' });

function parseAbsolute(target: string, schemeLength: number): RequestTarget {
  const authorityStart = schemeLength + 3;
  let authorityEnd = authorityStart;
  while (authorityEnd < target.length) {
    const c = target.charCodeAt(authorityEnd);
    if (c === SLASH || c === QUESTION || c === 35 /* # */ || c === 92 /* \ */) break;
    authorityEnd++;
  }
  // URL would skip the extra slashes of `http:///admin` and take `admin` as the host.
  if (authorityEnd === authorityStart) return { kind: 'invalid', reason: 'The request target has an empty authority.' };
  const lowerScheme = target.charCodeAt(0) === 104 && (schemeLength === 4 || target.charCodeAt(4) === 115);
  let fastHost = lowerScheme;
  for (let i = authorityStart; fastHost && i < authorityEnd; i++) {
    const c = target.charCodeAt(i);
    if (c >= 128 || HOST_SAFE[c] === 0) fastHost = false;
  }
  const host = target.slice(authorityStart, authorityEnd);
  // A port: digits, not the scheme's default (URL drops that one from `host`), else the slow path.
  const colon = host.indexOf(':');
  const name = colon === -1 ? host : host.slice(0, colon);
  if (colon !== -1) {
    const port = host.slice(colon + 1);
    const defaultPort = schemeLength === 4 ? '80' : '443';
    if (!/^[1-9]\d{0,4}$/.test(port) || Number(port) > 65535 || port === defaultPort) fastHost = false;
  }
  // URL rewrites IPv4 forms (`127.1`, `0x7f.0.0.1`, a trailing dot) and checks punycode labels:
  // those hosts take the slow path.
  if (fastHost && (name === '' || name.endsWith('.') || name.includes('xn--') || !isLetter(name.charCodeAt(name.lastIndexOf('.') + 1)))) fastHost = false;
  if (fastHost) {
    const scheme = schemeLength === 4 ? 'http' : 'https';
    if (authorityEnd === target.length) return { kind: 'absolute', path: '/', search: '', scheme, host };
    if (target.charCodeAt(authorityEnd) === SLASH) {
      const rest = scanPathAndQuery(target, authorityEnd);
      if (rest !== undefined) return { kind: 'absolute', path: rest.path, search: rest.search, scheme, host };
    }
  }
  if (target.includes('\\')) return BACKSLASH;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return { kind: 'invalid', reason: 'The request target is not a valid URL.' };
  }
  if (url.host === '') return { kind: 'invalid', reason: 'The request target has an empty host.' };
  return { kind: 'absolute', ...fromUrl(url), scheme: url.protocol === 'https:' ? 'https' : 'http', host: url.host };
}

/**
 * Reads a request target. One parser for every adapter: the Node server reads the target from the
 * request line, the fetch adapters from `request.url`.
 *
 * @example
 * parseRequestTarget('HTTP://a.test/posts'); // { kind: 'absolute', path: '/posts', search: '', scheme: 'http', host: 'a.test' }
 * parseRequestTarget('/a/../b');             // { kind: 'origin', path: '/b', search: '' }
 * parseRequestTarget('http:///admin');       // { kind: 'invalid', reason: 'The request target has an empty authority.' }
 */
export function parseRequestTarget(target: string): RequestTarget {
  if (target.charCodeAt(0) === SLASH) {
    const scanned = scanPathAndQuery(target, 0);
    if (scanned !== undefined) return scanned;
    // Only the slow path can meet one: `\\` is not in PATH_SAFE or QUERY_SAFE.
    if (target.includes('\\')) return BACKSLASH;
    // Concatenated, not resolved against a base: `//evil.test/x` is a path here, not a host.
    let url: URL;
    try {
      url = new URL(ORIGIN_BASE + target);
    } catch {
      return { kind: 'invalid', reason: 'The request target is not a valid path.' };
    }
    return { kind: 'origin', ...fromUrl(url) };
  }
  const schemeEnd = target.indexOf('://');
  if (schemeEnd === 4 || schemeEnd === 5) {
    const scheme = target.slice(0, schemeEnd).toLowerCase();
    if (scheme === 'http' || scheme === 'https') return parseAbsolute(target, schemeEnd);
  }
  if (target === '*') return { kind: 'asterisk' };
  if (schemeEnd === -1 && /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(target)) return { kind: 'authority' };
  return { kind: 'invalid', reason: 'The request target is neither a path nor an http(s) URL.' };
}

/**
 * The `host` a WHATWG URL would give for a Host header value under `scheme` (lowercase, default
 * port dropped), or undefined when the value is not a valid host. Used to compare Host with the
 * authority of an absolute-form target.
 *
 * @example
 * normalizeHost('http', 'A.Test:80'); // 'a.test'
 */
export function normalizeHost(scheme: 'http' | 'https', value: string): string | undefined {
  if (value === '' || /[/?#@\\\s]/.test(value)) return undefined;
  try {
    return new URL(`${scheme}://${value}`).host;
  } catch {
    return undefined;
  }
}
