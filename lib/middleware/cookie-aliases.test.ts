import { describe, expect, it } from 'vitest';
import * as core from '../index.js';
import * as middleware from './index.js';

describe('the cookie helpers moved to tessera-http', () => {
  it.each(['getCookie', 'getCookies', 'setCookie', 'deleteCookie', 'serializeCookie'] as const)('tessera-http/middleware still exports %s, as the core\u2019s own function', (name) => {
    expect(middleware[name], `${name} from tessera-http/middleware is a deprecated alias of the core's`).toBe(core[name]);
  });
});
