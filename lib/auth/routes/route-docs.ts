// The OpenAPI description of the mounted routes: summaries, the answers each may give (problem
// answers included), the tag. Metadata only: nothing here runs on a request.
import type { MetadataEntry } from '../../index.js';
import { ApiOperation, ApiResponse, ApiSecurity, ApiTags, type ApiResponseOptions } from '../../openapi/index.js';
import { REAUTHENTICATION_REQUIRED_TYPE } from '../sessions/state/recent-auth.js';

/** Every mounted route's tag. */
export const AUTH_TAG = ApiTags('Auth');

/** A route's summary (and its operation id, `<Controller>_<route>`, stays the generator's). */
export const summary = (text: string, description?: string): MetadataEntry => ApiOperation(description === undefined ? { summary: text } : { summary: text, description });

/** An answer a route may give. */
export const answers = (options: ApiResponseOptions): MetadataEntry => ApiResponse(options);

/** 400: a body the schema refuses (and, where said, the account service's own refusals). */
export const BAD_REQUEST = (what = 'A body the route does not accept'): MetadataEntry => ApiResponse({ status: 400, description: what });
/** 401 of a route behind a guard. */
export const UNAUTHORIZED = ApiResponse({ status: 401, description: `Missing or invalid credential; or (type \`${REAUTHENTICATION_REQUIRED_TYPE}\`) a sign-in older than the route accepts: sign in again` });
/** 403 of the browser routes and of cookie-authenticated unsafe requests. */
export const CROSS_SITE = ApiResponse({ status: 403, description: 'Another site started the request, or the CSRF token is missing or wrong' });
/** 413: over the route's small body limit. */
export const TOO_LARGE = ApiResponse({ status: 413, description: 'The body is larger than the route reads' });
/** 429 of the throttled routes. */
export const THROTTLED = ApiResponse({ status: 429, description: 'Too many requests from this client or for this address; see retry-after' });

/** The person-only routes' security: the app's person schemes, when it named them. */
export function personSecurity(schemes: readonly string[] | undefined): MetadataEntry[] {
  if (schemes === undefined || schemes.length === 0) return [];
  return [ApiSecurity(...(schemes as [string, ...string[]]))];
}
