import type { Transform } from 'node:stream';

/**
 * Brotli for the compression middleware, from Node's zlib (the web `CompressionStream` has no
 * brotli on Node 20). Node, Bun and Deno have `node:zlib`; Workers do not.
 *
 * @example
 * compression({ encoders: { br: brotliEncoder } });
 */
export function brotliEncoder(body: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  // Looked up, not imported: this entry must stay loadable where node:* is missing until used.
  const { createBrotliCompress, constants } = process.getBuiltinModule('node:zlib');
  const { Duplex } = process.getBuiltinModule('node:stream');
  // Quality 4: brotli's default (11) costs far more CPU than a per-request answer is worth.
  const compressor: Transform = createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } });
  return body.pipeThrough(Duplex.toWeb(compressor) as unknown as TransformStream<Uint8Array, Uint8Array>);
}
