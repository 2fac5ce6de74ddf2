import type { AccountRouteThrottleOptions } from '../throttle/account-route-throttle-options.js';

/**
 * The routes the auth module mounts (`routes` of `AuthModule.forRoot`): each group is off unless
 * asked for, and needs the option it serves. An app can still write its own routes around
 * `AUTH_SERVICE`, `BROWSER_SESSIONS` and `ACCOUNT_SERVICE`, beside or instead of these.
 *
 * | Group | Needs | Routes (under `prefix`, default `/auth`) |
 * | --- | --- | --- |
 * | `json` | `issuing` | `POST /sign-in`, `/refresh`, `/sign-out` |
 * | `browser` | `browser` | `POST /browser/sign-in`, `/browser/refresh`, `/browser/sign-out` |
 * | `accounts` | `accounts` | `POST /sign-up`, `/verify-email`, `/verify-email/resend`, `/password/forgot`, `/password/reset`, `/email/confirm`, `/password/change`, `/email/change` |
 * | `sessions` | `issuing` | `GET /sessions`, `DELETE /sessions/:id`, `DELETE /sessions/others`, `DELETE /sessions` |
 *
 * @example
 * routes: { json: true, browser: true, accounts: true, sessions: true, personSchemes: ['bearer', 'browserSession'] }
 */
export interface AuthRouteOptions {
  /** The path every mounted route starts with; default `/auth`. */
  readonly prefix?: string;
  /** Sign-in, refresh and sign-out with the tokens in JSON bodies (scripts, mobile apps). */
  readonly json?: boolean;
  /** Sign-in, refresh and sign-out with the tokens in cookies, CSRF-checked (the app's own pages). */
  readonly browser?: boolean;
  /** Sign-up, verification, password reset, password and e-mail change. */
  readonly accounts?: boolean;
  /** A person's sessions: list them, end one, end the others, end all. */
  readonly sessions?: boolean;
  /**
   * The throttles of sign-up and of the routes that send mail (on by default with `accounts`;
   * `false` turns them off). See `AccountRouteThrottleOptions`.
   */
  readonly throttle?: AccountRouteThrottleOptions | false;
  /**
   * The OpenAPI security schemes (names in the app's document) by which a signed-in person calls
   * the routes that need one (sessions, password and e-mail change), e.g. `['bearer',
   * 'browserSession']`: documented as their only alternatives, since an API key never may. Left
   * out, those routes keep the document's `security`.
   */
  readonly personSchemes?: readonly string[];
}
