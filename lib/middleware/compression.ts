import { TesseraError, headerOf, type Middleware, type Answer } from '../index.js';
import { addVary } from './vary.js';

/**
 * Turns a body stream into its compressed form.
 *
 * @example
 * const gzip: Encoder = (body) => body.pipeThrough(new CompressionStream('gzip'));
 */
export type Encoder = (body: ReadableStream<Uint8Array>) => ReadableStream<Uint8Array>;

/**
 * The content codings the middleware can negotiate, in the server's order of preference.
 *
 * @example
 * const coding: ContentCoding = 'br';
 */
export type ContentCoding = 'br' | 'gzip' | 'deflate';

/**
 * Options of {@link compression}.
 *
 * @example
 * compression({ threshold: 2048, encoders: { br: brotliEncoder } }); // brotliEncoder from 'tessera-http/node'
 */
export interface CompressionOptions {
  /** Smallest body worth compressing, bytes; bodies of unknown length (streams) always are. Default 1024. */
  readonly threshold?: number;
  /**
   * Encoders by coding. Default: gzip and deflate through the platform's `CompressionStream`
   * (every runtime has it); brotli needs an encoder, such as `brotliEncoder` from `tessera-http/node`.
   */
  readonly encoders?: Partial<Record<ContentCoding, Encoder>>;
}

const PREFERENCE: readonly ContentCoding[] = ['br', 'gzip', 'deflate'];
/** Text-like types compress well; images, archives and media are compressed already. SSE is left alone: a compressor buffers events. */
const COMPRESSIBLE = /^\s*(?:text\/(?!event-stream)[\w.+-]+|application\/(?:json|[\w.-]+\+json|javascript|ecmascript|xml|[\w.-]+\+xml|x-www-form-urlencoded|wasm)|image\/svg\+xml)\s*(?:;|$)/i;

function platformEncoder(format: 'gzip' | 'deflate'): Encoder | undefined {
  if (typeof CompressionStream !== 'function') return undefined;
  return (body) => body.pipeThrough(new CompressionStream(format) as unknown as TransformStream<Uint8Array, Uint8Array>);
}

/**
 * The coding to answer with for an `Accept-Encoding` value: the highest q-value among the codings
 * available, the server's preference (br, gzip, deflate) breaking ties; `q=0` refuses a coding,
 * `*` stands for any coding not listed. Undefined means identity.
 *
 * @example
 * negotiateEncoding('gzip;q=0.5, br;q=0.8', ['gzip', 'br']); // 'br'
 */
export function negotiateEncoding(header: string | null, available: readonly ContentCoding[]): ContentCoding | undefined {
  if (header === null) return undefined;
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token = '', ...params] = part.trim().toLowerCase().split(';');
    if (token === '') continue;
    let weight = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([0-9.]+)\s*$/.exec(param);
      if (match) weight = Math.min(1, Number(match[1]));
    }
    if (!Number.isNaN(weight)) q.set(token, weight);
  }
  let best: ContentCoding | undefined;
  let bestWeight = 0;
  for (const coding of PREFERENCE) {
    if (!available.includes(coding)) continue;
    const weight = q.get(coding) ?? q.get('*') ?? 0;
    if (weight > bestWeight) {
      best = coding;
      bestWeight = weight;
    }
  }
  return best;
}

function bodyStream(outcome: Answer): ReadableStream<Uint8Array> | null {
  if (outcome instanceof Response) return outcome.body;
  return outcome.body === null ? null : new Response(outcome.body).body;
}

/**
 * Compresses answers by `Accept-Encoding` (q-values honoured): text-like types only, bodies above
 * `threshold` bytes or of unknown length (streams, compressed as they flow), never an answer that
 * is already encoded or says `Cache-Control: no-transform`, never 204/304. Adds
 * `Vary: Accept-Encoding` to every compressible answer, compressed or not.
 *
 * @example
 * await createApp(AppModule, { middleware: [compression()] });
 */
export function compression(options: CompressionOptions = {}): Middleware {
  const threshold = options.threshold ?? 1024;
  if (!Number.isFinite(threshold) || threshold < 0) throw new TesseraError('COMPRESSION_CONFIG', 'compression: threshold must be a number of bytes >= 0');
  const encoders: Partial<Record<ContentCoding, Encoder>> = { gzip: platformEncoder('gzip'), deflate: platformEncoder('deflate'), ...options.encoders };
  const available = PREFERENCE.filter((coding) => encoders[coding] !== undefined);

  return async (ctx, next) => {
    const answer = await next();
    const status = answer.status;
    if (status < 200 || status === 204 || status === 304) return answer;
    const type = headerOf(answer, 'content-type');
    if (type === null || !COMPRESSIBLE.test(type)) return answer;
    if (headerOf(answer, 'content-encoding') !== null) return answer;
    if (/(?:^|,)\s*no-transform\s*(?:,|$)/i.test(headerOf(answer, 'cache-control') ?? '')) return answer;
    const varied = addVary(answer, 'Accept-Encoding');
    const coding = negotiateEncoding(ctx.header('accept-encoding'), available);
    if (coding === undefined) return varied;
    const length = answer instanceof Response ? headerOf(answer, 'content-length') : answer.body === null ? '0' : String(new TextEncoder().encode(answer.body).byteLength);
    if (length !== null && Number(length) < threshold) return varied;
    const body = bodyStream(varied);
    if (body === null) return varied;
    const headers = new Headers(varied instanceof Response ? varied.headers : (varied.headers as Record<string, string>));
    headers.delete('content-length');
    headers.set('content-encoding', coding);
    // `encodeBody: 'manual'` (ignored elsewhere) tells Workers the body is encoded already; without
    // it workerd compresses again by the Content-Encoding header and the client gets garbage.
    return new Response((encoders[coding] as Encoder)(body), { status, headers, encodeBody: 'manual' } as ResponseInit);
  };
}
