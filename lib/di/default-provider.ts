import type { ProviderInput } from './provider.js';

/**
 * Where a token keeps the provider the app uses when no module provides that token: the app's
 * configuration (`defineConfig`) and its source (`ENV`) need no module to be imported, yet any
 * module may still provide them itself (and a test override them). `Symbol.for` keeps the
 * protocol across two copies of the package.
 *
 * @example
 * const token = Object.freeze({ kind: 'token', name: 'NOW', [DEFAULT_PROVIDER]: () => ({ provide: token, useValue: Date.now() }) });
 */
export const DEFAULT_PROVIDER: unique symbol = Symbol.for('tessera:default-provider') as never;

/**
 * The provider a token carries for when no module provides it, if it carries one.
 *
 * @example
 * defaultProviderOf(ENV); // { provide: ENV, useFactory: ... }
 */
export function defaultProviderOf(token: unknown): ProviderInput | undefined {
  if (typeof token !== 'object' || token === null) return undefined;
  const make = (token as { [DEFAULT_PROVIDER]?: unknown })[DEFAULT_PROVIDER];
  return typeof make === 'function' ? (make as () => ProviderInput)() : undefined;
}
