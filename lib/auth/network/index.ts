// Public surface of the network helpers: IP parsing, CIDR networks, the API-key network
// restriction and the client-address reader. Pure code, no `node:*` imports.
export { parseIpAddress } from './ip-address.js';
export type { IpAddress } from './ip-address.js';
export { formatIpAddress } from './format-ip-address.js';
export { normalizeIpAddress } from './normalize-ip-address.js';
export { parseCidr, formatCidr, cidrContains } from './cidr.js';
export type { CidrNetwork } from './cidr.js';
export { InvalidCidrError, CidrHostBitsError, MalformedStoredCidrError } from './cidr-errors.js';
export { parseAllowedCidrs, compileAllowedCidrs } from './allowed-cidrs.js';
export type { AllowedCidrs } from './allowed-cidrs.js';
export { createTrustedProxyMatcher } from './trusted-proxy.js';
export type { TrustedProxyMatcher } from './trusted-proxy.js';
export { createClientAddressReader } from './client-address.js';
export type { ClientAddressOptions, ClientAddressInput, ClientAddressReader } from './client-address.js';
