import type { Clock } from '../../index.js';

/**
 * The auth module's own switches (core/): where its providers are visible, whether every route
 * needs a credential, the recent-authentication window and the clock. Part of `AuthModuleOptions`.
 *
 * @example
 * const scope: AuthModuleScopeOptions = { global: true, protectAllRoutes: true, recentAuthSeconds: 300 };
 */
export interface AuthModuleScopeOptions {
  /** When true, the guards and `AUTH_SERVICE` are visible in every module without importing the auth module. */
  readonly global?: boolean;
  /** When true, every route needs a credential unless marked `Public()`. */
  readonly protectAllRoutes?: boolean;
  /**
   * How long after signing in (seconds) a person may list or end sessions, change the password
   * or address (the mounted routes), or pass `RecentAuthGuard` (e.g. creating an API key).
   * Default 600. A sign-in's time is its session's start: refreshing does not renew it.
   */
  readonly recentAuthSeconds?: number;
  /** The clock for expiry, rotation and caching; default the system clock. */
  readonly clock?: Clock;
}
