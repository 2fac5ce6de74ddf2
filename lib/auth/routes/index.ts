// The routes the auth module mounts when asked (`routes` of forRoot): each group a controller.
import type { ControllerDefinition } from '../../index.js';
import { AuthConfigError } from '../credentials/jwt/index.js';
import { accountRoutes, accountSettingsRoutes } from './account-routes.js';
import type { AuthRouteOptions } from './auth-route-options.js';
import type { AuthRouteParts } from './auth-route-parts.js';
import { browserRoutes } from './browser-routes.js';
import { sessionRoutes } from './session-routes.js';
import { tokenRoutes } from './token-routes.js';

export type { AuthRouteOptions } from './auth-route-options.js';
export type { AuthRouteParts, RouteSessionService } from './auth-route-parts.js';

/** What the groups need of the module's other options. */
export interface AuthRouteNeeds {
  readonly issuing: boolean;
  readonly browser: boolean;
  readonly accounts: boolean;
}

/**
 * The prefix of `routes`, checked: `/auth` by default, `/` for none; no trailing slash.
 *
 * @example
 * routePrefix({ prefix: '/api/auth/' }); // '/api/auth'
 */
export function routePrefix(options: AuthRouteOptions): string {
  const prefix = options.prefix ?? '/auth';
  if (typeof prefix !== 'string' || !/^\/[A-Za-z0-9._~\-/]*$/.test(prefix) || prefix.includes('//')) throw new AuthConfigError(`routes.prefix must be a path such as '/auth', got '${String(prefix)}'`);
  return prefix.replace(/\/+$/, '');
}

/**
 * Throws `AuthConfigError` at `forRoot` for a group whose feature is not configured (the routes
 * would fail at their first request instead).
 *
 * @example
 * checkAuthRouteOptions(options.routes, { issuing: true, browser: false, accounts: true });
 */
export function checkAuthRouteOptions(options: AuthRouteOptions | undefined, needs: AuthRouteNeeds): void {
  if (options === undefined) return;
  routePrefix(options);
  if ((options.json === true || options.sessions === true) && !needs.issuing) throw new AuthConfigError('routes.json and routes.sessions need issuing: they sign in and end the sessions it issues');
  if (options.browser === true && !needs.browser) throw new AuthConfigError('routes.browser needs the browser option: the routes answer with its cookies');
  if (options.accounts === true && !needs.accounts) throw new AuthConfigError('routes.accounts needs the accounts option: the routes call ACCOUNT_SERVICE');
}

/**
 * Every group's controller, typed (for `createClient`, tests, or an app that mounts them itself):
 * what `forRoot` mounts for the groups its `routes` turns on.
 *
 * @example
 * const client = createClient(authRoutes(parts).json, 'http://localhost:3000');
 */
export function authRoutes<Claims>(parts: AuthRouteParts<Claims>) {
  return {
    json: tokenRoutes(parts),
    browser: browserRoutes(parts),
    accounts: accountRoutes(parts),
    accountSettings: accountSettingsRoutes(parts),
    sessions: sessionRoutes(parts),
  };
}

/** The controllers of every group, by group: see `authRoutes`. */
export type AuthRouteControllers = ReturnType<typeof authRoutes>;

/**
 * The controllers of the groups `options` turns on, in a stable order.
 *
 * @example
 * controllers: authRouteControllers(options.routes, parts)
 */
export function authRouteControllers<Claims>(options: AuthRouteOptions | undefined, parts: AuthRouteParts<Claims>): ControllerDefinition[] {
  if (options === undefined) return [];
  const all = authRoutes(parts);
  const controllers: ControllerDefinition[] = [];
  if (options.json === true) controllers.push(all.json);
  if (options.browser === true) controllers.push(all.browser);
  if (options.accounts === true) controllers.push(all.accounts, all.accountSettings);
  if (options.sessions === true) controllers.push(all.sessions);
  return controllers;
}
