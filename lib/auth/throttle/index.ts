// Sign-in throttling: failed sign-ins counted per account and client address on the app's
// RateLimitCounter, 429 with Retry-After before the password is checked.
export { SignInThrottle, SIGN_IN_THROTTLED_MESSAGE } from './sign-in-throttle.js';
export type { SignInThrottleDeps } from './sign-in-throttle.js';
export { DEFAULT_SIGN_IN_THROTTLE_TIERS, resolveSignInThrottleTiers } from './sign-in-throttle-options.js';
export type { SignInThrottleOptions, SignInThrottleTier, SignInThrottleTiers, SignInCounterOptions, SignInCounterFactory, InjectedSignInCounters, ThrottleDimension } from './sign-in-throttle-options.js';
export { createThrottleKeys, addressPrefix } from './throttle-keys.js';
export { normalizeIdentifier } from '../shared/normalize-identifier.js';
export type { ThrottleKeys } from './throttle-keys.js';
export { signInThrottleProvider, checkSignInThrottleOptions } from './sign-in-throttle-provider.js';
export { withSignInThrottle } from './throttled-auth-service.js';
export { AccountRouteThrottle, ACCOUNT_ROUTE_THROTTLED_MESSAGE } from './account-route-throttle.js';
export type { AccountRouteKind, AccountRouteThrottleSettings } from './account-route-throttle.js';
export { DEFAULT_ACCOUNT_ROUTE_BUDGETS, resolveAccountRouteBudgets } from './account-route-throttle-options.js';
export type { AccountRouteThrottleOptions, AccountRouteBudgets, RequestBudget } from './account-route-throttle-options.js';
export { accountRouteThrottleProvider, accountRouteThrottleImports } from './account-route-throttle-provider.js';
