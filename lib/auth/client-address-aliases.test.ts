import { describe, expect, it } from 'vitest';
import * as core from '../index.js';
import * as auth from './index.js';

describe('the client-address and network names moved to tessera-http', () => {
  it.each(['createClientAddressReader', 'createTrustedProxyMatcher', 'parseAllowedCidrs', 'InvalidCidrError', 'CidrHostBitsError'] as const)('tessera-http/auth still exports %s, as the core\u2019s own value', (name) => {
    expect(auth[name], `${name} from tessera-http/auth is a deprecated alias of the core's`).toBe(core[name]);
  });
});
