import { createStateKey } from './request-context.js';

/**
 * The app's browser-origin policy for the current request, left on the context by the `cors()`
 * middleware when the request asks for an upgrade: a WebSocket route without its own `origins`
 * checks the `Origin` header against it (against cross-site WebSocket hijacking).
 *
 * @example
 * ctx.set(ALLOWED_ORIGINS, (origin) => origin === 'https://app.example.com');
 */
export const ALLOWED_ORIGINS = createStateKey<(origin: string) => boolean>('tessera:allowed-origins');
