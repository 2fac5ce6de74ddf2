import type { RequestContext } from '../context/request-context.js';
import { sha256Hex } from './sha256-digest.js';

const encoder = new TextEncoder();
const NEWLINE = encoder.encode('\n');

/**
 * What names a stored answer: the route (method and path template), the caller and the key. Its
 * hash is the id the store keeps (two callers, or two routes, never share a key, and the store
 * never sees who called); the answer is sealed with a key derived from it (see `answerKey`).
 *
 * @example
 * idempotencyMaterial('POST', '/tenants/:tenantId/posts', 'user:u_1', '8e03978e-…');
 */
export function idempotencyMaterial(method: string, path: string, identity: string, key: string): string {
  return JSON.stringify([method, path, identity, key]);
}

/**
 * The id an answer is stored under: the SHA-256 of {@link idempotencyMaterial}, 64 hex characters.
 * A string, computed synchronously, unless the material is over the synchronous hash's bound (an
 * identity of kilobytes): a Web Crypto call would cost more than hashing a few hundred bytes.
 *
 * @example
 * idempotencyId(idempotencyMaterial('POST', '/orders', 'user:u_1', 'k'));
 */
export function idempotencyId(material: string): string | Promise<string> {
  return sha256Hex(encoder.encode(material));
}

/**
 * What makes two requests with one key the same request: the SHA-256 of the path parameters,
 * the query and the body. The body is the validated value (as JSON) on a route with a body schema
 * (so a retry that differs only in what the schema strips is the same request), else the raw
 * bytes, read from a copy the handler does not see (within the route's body limit).
 *
 * A string, computed synchronously, for a route with a body schema and a body within the
 * synchronous hash's bound (the usual create); a promise when the raw body must be read or is
 * larger (then Web Crypto hashes it).
 *
 * @example
 * const fingerprint = await requestFingerprint(ctx);
 */
export function requestFingerprint(ctx: RequestContext): string | Promise<string> {
  const head = encoder.encode(JSON.stringify([ctx.params, ctx.query]));
  if (ctx.route?.body === undefined) return rawBody(ctx.request).then((body) => sha256Hex(joined(head, body)));
  return sha256Hex(joined(head, encoder.encode(JSON.stringify(ctx.body) ?? '')));
}

/** `head`, a newline, `body`: what the fingerprint hashes. */
function joined(head: Uint8Array, body: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(head.byteLength + NEWLINE.byteLength + body.byteLength);
  bytes.set(head, 0);
  bytes.set(NEWLINE, head.byteLength);
  bytes.set(body, head.byteLength + NEWLINE.byteLength);
  return bytes;
}

async function rawBody(request: Request): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  return new Uint8Array(await request.clone().arrayBuffer());
}
