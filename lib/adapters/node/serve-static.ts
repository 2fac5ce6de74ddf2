import { TesseraError, ifNoneMatchMatches, type App, type RequestContext } from '../../index.js';

/**
 * Options of {@link serveStatic}.
 *
 * @example
 * serveStatic(app, '/assets', './public', { cacheControl: 'public, max-age=86400' });
 */
export interface ServeStaticOptions {
  /** `Cache-Control` of every file. Default `public, max-age=0` (revalidate with the ETag). */
  readonly cacheControl?: string;
  /** Extra or replacement types by extension (`{ '.md': 'text/markdown; charset=utf-8' }`). */
  readonly types?: Readonly<Record<string, string>>;
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
};

const notFound = () => new Response(null, { status: 404 });

/**
 * The file a request path names inside `root`, or undefined when it must not be served: an
 * encoded slash or backslash in the raw path, a `.`/`..` segment, a NUL, a backslash, or (after
 * resolving symlinks) anything outside the root.
 */
function locate(root: string, rawPath: string, relative: string): string | undefined {
  const { realpathSync } = process.getBuiltinModule('node:fs');
  const { resolve, sep } = process.getBuiltinModule('node:path');
  // `%2F` and `%5C` would become separators once decoded: a path names segments, not a path in one.
  if (/%2f|%5c/i.test(rawPath)) return undefined;
  if (relative.includes('\0') || relative.includes('\\')) return undefined;
  const segments = relative.split('/');
  if (segments.some((segment) => segment === '..' || segment === '.')) return undefined;
  const candidate = resolve(root, ...segments.filter((s) => s !== ''));
  let real: string;
  try {
    real = realpathSync(candidate);
  } catch {
    return undefined;
  }
  return real.startsWith(root + sep) ? real : undefined;
}

/** One satisfiable byte range of `size`, `'unsatisfiable'`, or undefined to serve the whole file. */
function parseRange(header: string, size: number): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges (multipart/byteranges) are allowed to be answered with the whole file.
  if (!match) return undefined;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  let start: number;
  let end: number;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Serves the files under `root` at `prefix` (GET and HEAD), on Node (and Bun, Deno, which have
 * `node:fs`): content types by extension, `ETag` (size and modification time) and
 * `Last-Modified` with `If-None-Match` / `If-Modified-Since` -> 304, single byte ranges (206,
 * 416) with `If-Range`, and no way out of the root: decoded `..`, `%2e%2e`, encoded slashes and
 * symlinks pointing outside answer 404. Raw routes: no guards (put private files elsewhere).
 * On Workers, serve files with the platform's static assets instead.
 *
 * @example
 * serveStatic(app, '/assets', new URL('./public', import.meta.url).pathname);
 */
export function serveStatic(app: Pick<App, 'addRawRoute'>, prefix: string, root: string, options: ServeStaticOptions = {}): void {
  const { realpathSync, statSync, createReadStream } = process.getBuiltinModule('node:fs');
  const { extname } = process.getBuiltinModule('node:path');
  const { Readable } = process.getBuiltinModule('node:stream');
  let realRoot: string;
  try {
    realRoot = realpathSync(root);
  } catch {
    throw new TesseraError('STATIC_ROOT_MISSING', `serveStatic: the directory ${JSON.stringify(root)} does not exist.`);
  }
  const types = { ...TYPES, ...options.types };
  const cacheControl = options.cacheControl ?? 'public, max-age=0';
  const base = prefix.replace(/\/+$/, '');

  app.addRawRoute('GET', `${base}/*`, (ctx: RequestContext) => {
    const file = locate(realRoot, ctx.path, ctx.params['*'] ?? '');
    if (file === undefined) return notFound();
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) return notFound();
    const etag = `"${stat.size.toString(16)}-${Math.floor(stat.mtimeMs).toString(16)}"`;
    const lastModified = new Date(Math.floor(stat.mtimeMs / 1000) * 1000).toUTCString();
    const headers: Record<string, string> = {
      'content-type': types[extname(file).toLowerCase()] ?? 'application/octet-stream',
      etag,
      'last-modified': lastModified,
      'cache-control': cacheControl,
      'accept-ranges': 'bytes',
    };
    const ifNoneMatch = ctx.header('if-none-match');
    const ifModifiedSince = ctx.header('if-modified-since');
    const notModified =
      ifNoneMatch !== null
        ? ifNoneMatchMatches(ifNoneMatch, etag)
        : ifModifiedSince !== null && Date.parse(ifModifiedSince) >= Date.parse(lastModified);
    if (notModified) return new Response(null, { status: 304, headers: { etag, 'last-modified': lastModified, 'cache-control': cacheControl } });

    const rangeHeader = ctx.header('range');
    const ifRange = ctx.header('if-range');
    const rangeApplies = rangeHeader !== null && (ifRange === null || ifRange === etag || ifRange === lastModified);
    const range = rangeApplies ? parseRange(rangeHeader, stat.size) : undefined;
    if (range === 'unsatisfiable') return new Response(null, { status: 416, headers: { 'content-range': `bytes */${stat.size}` } });
    const start = range?.start ?? 0;
    const end = range?.end ?? stat.size - 1;
    headers['content-length'] = String(stat.size === 0 ? 0 : end - start + 1);
    if (range) headers['content-range'] = `bytes ${start}-${end}/${stat.size}`;
    const body = stat.size === 0 || ctx.method === 'HEAD' ? null : (Readable.toWeb(createReadStream(file, { start, end })) as ReadableStream<Uint8Array>);
    return new Response(body, { status: range ? 206 : 200, headers });
  });
}
