// The bearer check the Express and Fastify `/me` servers share: jose `jwtVerify` with a
// pre-imported key (the fastest way to use jose), then the same zod claims schema as Tessera.
// Loaded only by the `me` scenario, so cold start (hello) does not pay for jose or zod.
import { jwtVerify } from 'jose';
import { JWT_SECRET } from './shared.mjs';
import { Claims } from './schemas.mjs';

const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(JWT_SECRET), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);

/** The claims of a valid `Bearer <token>` header, or undefined for anything else. */
export async function verifyBearerHeader(authorization) {
  if (!authorization || !authorization.startsWith('Bearer ')) return undefined;
  try {
    const { payload } = await jwtVerify(authorization.slice(7), key, { algorithms: ['HS256'], typ: 'at+jwt', requiredClaims: ['exp'] });
    const claims = Claims.safeParse(payload);
    return claims.success ? claims.data : undefined;
  } catch {
    return undefined;
  }
}
