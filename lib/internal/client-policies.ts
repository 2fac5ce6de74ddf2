// Internal entry (not in the package's `exports`; names move between releases): who may call, as
// the app decided once at boot: the origin policy (CORS, the WebSocket handshake, auth's CSRF
// check) and the client-address rule, with the address and network parsers auth's API-key
// restrictions and throttling keys use.
export { ALLOWED_ORIGINS, ORIGIN_POLICY, originPolicyOf, compileOriginPolicy, OWN_ORIGIN_ONLY, type CompiledOriginPolicy } from '../context/origin-policy.js';
export { parseIpAddress, type IpAddress } from '../network/ip-address.js';
export { compileAllowedCidrs, type AllowedCidrs } from '../network/allowed-cidrs.js';
export { MalformedStoredCidrError } from '../network/cidr-errors.js';
export { CLIENT_ADDRESS_RULE, type ClientAddressRule } from '../network/client-address-rule.js';
