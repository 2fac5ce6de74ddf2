import { PayloadTooLargeException } from './http-exception.js';

/**
 * A Content-Length header's value when it is a plain decimal length, else undefined.
 *
 * @example
 * declaredLength('42');  // 42
 * declaredLength('4 2'); // undefined
 */
export function declaredLength(header: string | null): number | undefined {
  if (header === null) return undefined;
  const length = Number(header);
  return header !== '' && Number.isSafeInteger(length) && length >= 0 ? length : undefined;
}

/**
 * A body stream that yields at most `limit` bytes: past it (or at once, when Content-Length
 * says so) it errors with a 413 and cancels the source, so nothing past the limit is buffered.
 *
 * @example
 * new Request(url, { method: 'POST', body: limitBody(source, headers.get('content-length'), 1_048_576), duplex: 'half' });
 */
export function limitBody(source: ReadableStream<Uint8Array>, contentLength: string | null, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  const reader = source.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (contentLength !== null && Number(contentLength) > limit) {
          await reader.cancel().catch(() => undefined);
          controller.error(tooLarge(limit));
          return;
        }
        const { done, value } = await reader.read();
        if (done) {
          controller.close();
          return;
        }
        seen += value.byteLength;
        if (seen > limit) {
          await reader.cancel().catch(() => undefined);
          controller.error(tooLarge(limit));
          return;
        }
        controller.enqueue(value);
      },
      cancel(reason) {
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads a body stream into memory, stopping (and cancelling the stream) as soon as it passes
 * `limit` bytes, so an oversized body is never buffered past the limit.
 *
 * @example
 * const bytes = await readStreamWithLimit(request.body, request.headers.get('content-length'), 1024);
 */
export async function readStreamWithLimit(
  body: ReadableStream<Uint8Array> | null,
  contentLength: string | null,
  limit: number,
): Promise<Uint8Array> {
  if (contentLength !== null && Number(contentLength) > limit) throw tooLarge(limit);
  if (body === null) return new Uint8Array(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > limit) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge(limit);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0] as Uint8Array;
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * The 413 error for a body over `limit` bytes.
 *
 * @example
 * throw tooLarge(1_048_576);
 */
export function tooLarge(limit: number): PayloadTooLargeException {
  return new PayloadTooLargeException(`Request body exceeds the limit of ${limit} bytes.`);
}
