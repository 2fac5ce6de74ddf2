// The WebSocket upgraders' names before they were renamed (9c6f90f: one completer type,
// WebSocketUpgrader, and one word for it), kept for one minor version so that an app written
// against 0.1 compiles unchanged (issue 47). Each is the same value as the new name.
// Removed in 0.3; CHANGELOG.md gives the new name of each.
import type { WebSocketUpgrader } from '../../internal/web-sockets.js';
import { bunWebSocketUpgrader } from '../bun/bun-web-socket-upgrader.js';
import { denoWebSocketUpgrader } from '../deno/deno-web-socket-upgrader.js';
import { workersWebSocketUpgrader } from '../workers/workers-web-socket-upgrader.js';

/**
 * @deprecated renamed bunWebSocketUpgrader; import that from tessera-http/fetch. Removed in 0.3.
 * @example
 * const upgrader = bunWebSocketUpgrader();
 * Bun.serve({ fetch: toFetchHandler(app, { webSocketUpgrader: upgrader }), websocket: upgrader.websocket });
 */
export const bunWebSockets = bunWebSocketUpgrader;
/** @deprecated renamed: the return type of bunWebSocketUpgrader(). Removed in 0.3. */
export type BunWebSockets = ReturnType<typeof bunWebSocketUpgrader>;
/**
 * @deprecated renamed denoWebSocketUpgrader; import that from tessera-http/fetch. Removed in 0.3.
 * @example
 * Deno.serve(toFetchHandler(app, { webSocketUpgrader: denoWebSocketUpgrader }));
 */
export const denoWebSockets = denoWebSocketUpgrader;
/**
 * @deprecated renamed workersWebSocketUpgrader; import that from tessera-http/fetch. Removed in 0.3.
 * @example
 * export default { fetch: toFetchHandler(app, { webSocketUpgrader: workersWebSocketUpgrader }) };
 */
export const workersWebSockets = workersWebSocketUpgrader;
/** @deprecated renamed WebSocketUpgrader; import type WebSocketUpgrader from tessera-http/fetch. Removed in 0.3. */
export type FetchWebSockets = WebSocketUpgrader;
