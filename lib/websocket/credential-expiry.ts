import { createStateKey, type StateKey } from '../context/request-context.js';

/**
 * When the credential that authenticated a request stops being valid (epoch ms by the wall
 * clock, `Date.now()`), set by the guard that accepted it (the auth module's guards do, for a
 * token's `exp` and a key's `expiresAt`). A WebSocket opened by that request is closed with 1008 (`Credential expired`) at
 * that moment: a socket never outlives what let it in. A guard of the app's own can set it too.
 *
 * @example
 * if (ctx.route?.webSocket !== undefined) ctx.set(CREDENTIAL_EXPIRES_AT, payload.exp * 1000);
 */
export const CREDENTIAL_EXPIRES_AT: StateKey<number> = createStateKey<number>('credential-expires-at');
