import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { SignInThrottle } from './sign-in-throttle.js';

/** What can be throttled: anything with the `signIn` of `AuthService` (and its two-step `beginSignIn`, when it has one). */
interface SignsIn {
  signIn(identifier: string, password: string, context?: SignInContext): Promise<unknown>;
  beginSignIn?(identifier: string, password: string, context?: SignInContext): Promise<unknown>;
}

/**
 * The service with its `signIn` run through `throttle` (see {@link SignInThrottle}); every other
 * member is the service's own, called on the service. `null` answers the service as it is.
 * Wrapping the service the `AUTH_SERVICE` token resolves to throttles every route that signs in
 * through it: JSON and browser sign-ins alike.
 *
 * @example
 * const auth = withSignInThrottle(new TokenIssuingService(options), throttle);
 * await auth.signIn('alice@acme.test', password, { clientAddress }); // 429 once throttled
 */
export function withSignInThrottle<S extends SignsIn>(service: S, throttle: SignInThrottle | null): S {
  if (throttle === null) return service;
  const signIn = (identifier: string, password: string, context?: SignInContext) =>
    throttle.attempt(String(identifier), context, () => service.signIn(identifier, password, context));
  // The two-step sign-in checks the same password: the same counts.
  const beginSignIn = (identifier: string, password: string, context?: SignInContext) =>
    throttle.attempt(String(identifier), context, () => (service.beginSignIn as NonNullable<SignsIn['beginSignIn']>).call(service, identifier, password, context));
  return new Proxy(service, {
    get(target, property) {
      if (property === 'signIn') return signIn;
      if (property === 'beginSignIn' && typeof target.beginSignIn === 'function') return beginSignIn;
      const value: unknown = Reflect.get(target, property, target);
      // Bound to the service itself: its private fields are not reachable through the proxy.
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
