import { sha256 } from '@noble/hashes/sha2.js';
import { headerOf, ifNoneMatchMatches, withHeaders, type Middleware, type Answer } from '../index.js';
import { encodeBase64 } from '../internal/primitives.js';

/**
 * A strong entity tag for a body: the first 16 bytes of its SHA-256, base64url, quoted.
 *
 * @example
 * strongEtag('{"id":"1"}'); // '"q3B...Zg"'
 */
export function strongEtag(body: string | Uint8Array): string {
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body;
  return `"${encodeBase64(sha256(bytes).subarray(0, 16))}"`;
}

/** Headers a 304 keeps (RFC 9110 §15.4.5): those a 200 would have had that describe the representation's caching. */
const KEPT_ON_304 = ['cache-control', 'content-location', 'date', 'etag', 'expires', 'vary'];

/**
 * Strong ETags for JSON answers, and `If-None-Match` -> 304 without a body. Applies to 200
 * answers to GET and HEAD whose body the core built (JSON, not a streamed Response); an answer
 * that already has an ETag keeps it and is still checked. HEAD gets the same tag as GET.
 *
 * @example
 * await createApp(AppModule, { middleware: [etag()] });
 */
export function etag(): Middleware {
  return async (ctx, next) => {
    const answer = await next();
    if ((ctx.method !== 'GET' && ctx.method !== 'HEAD') || answer.status !== 200) return answer;
    let tag = headerOf(answer, 'etag');
    let tagged: Answer = answer;
    if (tag === null) {
      if (answer instanceof Response || answer.body === null) return answer;
      tag = strongEtag(answer.body);
      tagged = withHeaders(answer, { etag: tag });
    }
    const condition = ctx.header('if-none-match');
    if (condition === null || !ifNoneMatchMatches(condition, tag)) return tagged;
    const kept: Record<string, string> = {};
    for (const name of KEPT_ON_304) {
      const value = headerOf(tagged, name);
      if (value !== null) kept[name] = value;
    }
    if (tagged instanceof Response) await tagged.body?.cancel().catch(() => undefined);
    return { status: 304, headers: kept, body: null };
  };
}
