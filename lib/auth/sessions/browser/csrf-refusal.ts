import { ForbiddenException } from '../../../index.js';

/**
 * The 403 problem for a cookie-authenticated request a page of another site may have started
 * (`Sec-Fetch-Site` / `Origin` check failed).
 *
 * @example
 * throw crossSiteRefused();
 */
export function crossSiteRefused(): ForbiddenException {
  return new ForbiddenException('Cross-site request refused');
}

/**
 * The 403 problem for a cookie-authenticated unsafe request without the session's CSRF token in
 * `X-CSRF-Token` (missing, wrong, or another session's).
 *
 * @example
 * throw csrfTokenRefused();
 */
export function csrfTokenRefused(): ForbiddenException {
  return new ForbiddenException('Missing or invalid CSRF token');
}
