import { request as httpRequest } from 'node:http';
import type { RawAnswer } from './conformance-checks.js';

/**
 * How a body goes over the wire: `declared` sends it in one write with its Content-Length;
 * `chunked` sends a chunked upload (no length) of `chunkBytes`-byte chunks (default 1, which
 * splits every multi-byte sequence across chunks).
 */
export type Framing = 'declared' | 'chunked';

/**
 * Sends raw bytes as a request body over node:http, which fetch cannot do byte by byte, and
 * reads the answer back as the shared checks read answers.
 *
 * @example
 * await sendBytes('http://127.0.0.1:8080/posts', new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json', 'chunked');
 */
export function sendBytes(url: string, bytes: Uint8Array, contentType: string, framing: Framing, chunkBytes = 1): Promise<RawAnswer> {
  const headers: Record<string, string> = { 'content-type': contentType };
  if (framing === 'declared') headers['content-length'] = String(bytes.byteLength);
  else headers['transfer-encoding'] = 'chunked';
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers, timeout: 20_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = text === '' ? undefined : JSON.parse(text);
        } catch {
          json = undefined;
        }
        const answerHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') answerHeaders.set(name, value);
        resolve({ status: res.statusCode ?? 0, headers: answerHeaders, text, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer from ${url} within 20 s`)));
    req.on('error', reject);
    if (framing === 'declared') req.end(bytes);
    else {
      for (let i = 0; i < bytes.byteLength; i += chunkBytes) req.write(bytes.subarray(i, i + chunkBytes));
      req.end();
    }
  });
}
