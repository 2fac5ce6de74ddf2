import { describe, expect, it } from 'vitest';
import { authenticatedAtOf, reauthenticationRequired, REAUTHENTICATION_REQUIRED_TYPE } from './recent-auth.js';
import { newSessionId } from './session-id.js';

const AT = 1_767_225_600_000;

describe('authenticatedAtOf', () => {
  it('reads an own token\u2019s sign-in from its session id, and ignores an auth_time it might carry', () => {
    expect(authenticatedAtOf({ sid: newSessionId(AT), auth_time: AT / 1000 + 3600 }, true)).toBe(AT);
  });

  it('reads an identity provider\u2019s token by its auth_time (seconds), never by its sid', () => {
    expect(authenticatedAtOf({ auth_time: AT / 1000, sid: newSessionId(AT + 60_000) }, false)).toBe(AT);
  });

  it('answers undefined when the token does not say: no sid, a version-4 sid, no or a malformed auth_time', () => {
    expect(authenticatedAtOf({}, true)).toBeUndefined();
    expect(authenticatedAtOf({ sid: crypto.randomUUID() }, true), 'a v4 UUID has no time in it').toBeUndefined();
    expect(authenticatedAtOf({ sid: newSessionId(AT) }, false), 'an outside sid is not ours to read').toBeUndefined();
    expect(authenticatedAtOf({ auth_time: '1767225600' }, false)).toBeUndefined();
    expect(authenticatedAtOf({ auth_time: -1 }, false)).toBeUndefined();
  });
});

describe('reauthenticationRequired', () => {
  it('is a 401 with a stable type and code, and the RFC 9470 challenge', () => {
    const error = reauthenticationRequired(300);
    expect({ status: error.status, type: error.type, details: error.details }).toEqual({ status: 401, type: REAUTHENTICATION_REQUIRED_TYPE, details: { code: 'reauthentication_required', maxAgeSeconds: 300 } });
    expect(error.headers?.['www-authenticate']).toBe('Bearer error="insufficient_user_authentication", error_description="A more recent authentication is required", max_age=300');
  });
});
