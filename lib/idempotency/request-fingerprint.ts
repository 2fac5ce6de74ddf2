import type { RequestContext } from '../context/request-context.js';

const encoder = new TextEncoder();
const NEWLINE = encoder.encode('\n');

/** SHA-256 of `bytes`, lower-case hex; Web Crypto, which every runtime Tessera serves has. */
async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

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
 *
 * @example
 * await idempotencyId(idempotencyMaterial('POST', '/orders', 'user:u_1', 'k'));
 */
export function idempotencyId(material: string): Promise<string> {
  return sha256Hex(encoder.encode(material));
}

/**
 * What makes two requests with one key the same request: the SHA-256 of the path parameters,
 * the query and the body. The body is the validated value (as JSON) on a route with a body schema
 * (so a retry that differs only in what the schema strips is the same request), else the raw
 * bytes, read from a copy the handler does not see (within the route's body limit).
 *
 * @example
 * const fingerprint = await requestFingerprint(ctx);
 */
export async function requestFingerprint(ctx: RequestContext): Promise<string> {
  const head = encoder.encode(JSON.stringify([ctx.params, ctx.query]));
  const body = ctx.route?.body === undefined ? await rawBody(ctx.request) : encoder.encode(JSON.stringify(ctx.body) ?? '');
  const bytes = new Uint8Array(head.byteLength + NEWLINE.byteLength + body.byteLength);
  bytes.set(head, 0);
  bytes.set(NEWLINE, head.byteLength);
  bytes.set(body, head.byteLength + NEWLINE.byteLength);
  return sha256Hex(bytes);
}

async function rawBody(request: Request): Promise<Uint8Array> {
  if (request.body === null) return new Uint8Array(0);
  return new Uint8Array(await request.clone().arrayBuffer());
}
