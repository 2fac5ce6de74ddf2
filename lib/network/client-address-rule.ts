import { createToken, type Token } from '../di/token.js';
import { createClientAddressReader, type ClientAddressOptions, type ClientAddressReader } from './client-address.js';

/**
 * The app's one rule for the client address (`createApp`'s `clientAddress` option), compiled at
 * boot. `ctx.clientAddress` reads through it; auth reads it to refuse a second rule configured
 * with its deprecated `clientIp` options.
 *
 * @example
 * const rule = compileClientAddressRule({ trustedProxyHops: 1 });
 * rule.read({ socketAddress: '10.0.0.5', forwardedFor: '203.0.113.9' }); // '203.0.113.9'
 */
export interface ClientAddressRule {
  /** Whether the app was given a rule; false means the default (the socket peer is the client). */
  readonly configured: boolean;
  readonly read: ClientAddressReader;
}

/**
 * The app's client-address rule, a provider every module sees without importing it (the app's
 * built-in, like `LOGGER`).
 *
 * @example
 * defineFactory(MY_TOKEN, [CLIENT_ADDRESS_RULE], (rule) => new Thing(rule.configured));
 */
export const CLIENT_ADDRESS_RULE: Token<ClientAddressRule> = createToken<ClientAddressRule>('tessera:client-address-rule');

/** The socket peer, in canonical form, is the client: the rule of an app given none. */
export const SOCKET_PEER_RULE: ClientAddressRule = Object.freeze({ configured: false, read: createClientAddressReader() });

/**
 * Compiles `createApp`'s `clientAddress` option once: a bad hop count or proxy network fails the
 * boot, not a request.
 *
 * @example
 * compileClientAddressRule(undefined) === SOCKET_PEER_RULE; // true
 */
export function compileClientAddressRule(options: ClientAddressOptions | undefined): ClientAddressRule {
  if (options === undefined) return SOCKET_PEER_RULE;
  return Object.freeze({ configured: true, read: createClientAddressReader(options) });
}
