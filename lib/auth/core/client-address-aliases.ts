// The client-address and network names `tessera-http/auth` exported before they moved to the
// core (issue 47): kept as deprecated aliases for one minor version, so an app compiled against
// 0.1 keeps compiling. Each is the core's own value, so `instanceof` and identity still hold.
import * as core from '../../index.js';

/**
 * @deprecated Since 0.2: import `createClientAddressReader` from `tessera-http`; an app's rule is
 * `createApp(root, { clientAddress })`, and `ctx.clientAddress` is its answer. Removed in 0.3.
 *
 * @example
 * const read = createClientAddressReader({ trustedProxyHops: 1 });
 */
export const createClientAddressReader: typeof core.createClientAddressReader = core.createClientAddressReader;

/**
 * @deprecated Since 0.2: import `createTrustedProxyMatcher` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * const isTrustedProxy = createTrustedProxyMatcher(['10.0.0.0/8']);
 */
export const createTrustedProxyMatcher: typeof core.createTrustedProxyMatcher = core.createTrustedProxyMatcher;

/**
 * @deprecated Since 0.2: import `parseAllowedCidrs` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * parseAllowedCidrs(['10.0.0.0/8']); // ['10.0.0.0/8']
 */
export const parseAllowedCidrs: typeof core.parseAllowedCidrs = core.parseAllowedCidrs;

/**
 * @deprecated Since 0.2: import `InvalidCidrError` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * if (error instanceof InvalidCidrError) throw new BadRequestException(error.message);
 */
export const InvalidCidrError: typeof core.InvalidCidrError = core.InvalidCidrError;
/** @deprecated Since 0.2: import `InvalidCidrError` from `tessera-http`. Removed in 0.3. */
export type InvalidCidrError = core.InvalidCidrError;

/**
 * @deprecated Since 0.2: import `CidrHostBitsError` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * if (error instanceof CidrHostBitsError) console.log(error.suggestion);
 */
export const CidrHostBitsError: typeof core.CidrHostBitsError = core.CidrHostBitsError;
/** @deprecated Since 0.2: import `CidrHostBitsError` from `tessera-http`. Removed in 0.3. */
export type CidrHostBitsError = core.CidrHostBitsError;

/**
 * @deprecated Since 0.2: import `TrustedProxyMatcher` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * const isTrustedProxy: TrustedProxyMatcher = (address) => address === '10.0.0.5';
 */
export type TrustedProxyMatcher = core.TrustedProxyMatcher;

/**
 * @deprecated Since 0.2: import `ClientAddressOptions` from `tessera-http` and give it to
 * `createApp(root, { clientAddress })`. Removed in 0.3.
 *
 * @example
 * const options: ClientAddressOptions = { trustedProxyHops: 1 };
 */
export type ClientAddressOptions = core.ClientAddressOptions;

/**
 * @deprecated Since 0.2: the app's `createApp(root, { clientAddress })` takes these options
 * (type `ClientAddressOptions` from `tessera-http`); `apiKeys.clientIp` and `browser.clientIp`
 * are its deprecated aliases. Removed in 0.3.
 *
 * @example
 * const options: ClientIpOptions = { trustedProxyHops: 1 };
 */
export type ClientIpOptions = core.ClientAddressOptions;

/**
 * @deprecated Since 0.2: import `ClientAddressInput` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * const input: ClientAddressInput = { socketAddress: '10.0.0.5', forwardedFor: null };
 */
export type ClientAddressInput = core.ClientAddressInput;

/**
 * @deprecated Since 0.2: import `ClientAddressReader` from `tessera-http`. Removed in 0.3.
 *
 * @example
 * const read: ClientAddressReader = createClientAddressReader();
 */
export type ClientAddressReader = core.ClientAddressReader;
