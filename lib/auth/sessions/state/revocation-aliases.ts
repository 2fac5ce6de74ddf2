// Names renamed for one word for ending a session (issue 47/48: revoke, SPEC's word), kept as
// deprecated aliases until 0.3 (CHANGELOG.md; test/surface/deprecated-aliases.test.ts).
import { REVOCATION_TOPIC, type CredentialRevocation } from './credential-revocation.js';

/**
 * @deprecated Renamed {@link REVOCATION_TOPIC} (the same topic); removed in 0.3.
 * @example
 * import { REVOCATION_TOPIC } from 'tessera-http/auth';
 */
export const INVALIDATION_TOPIC = REVOCATION_TOPIC;

/**
 * @deprecated Renamed {@link CredentialRevocation}; removed in 0.3.
 * @example
 * import type { CredentialRevocation } from 'tessera-http/auth';
 */
export type CredentialInvalidation = CredentialRevocation;
