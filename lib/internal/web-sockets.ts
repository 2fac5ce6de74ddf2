// Internal entry (not in the package's `exports`; names move between releases): what a server
// adapter implements to upgrade a request and carry a WebSocket.
export { settleUpgrade, type AcceptedUpgrade, type WebSocketUpgrader } from '../websocket/upgrade-answer.js';
export type { PendingWebSocket } from '../websocket/session-roles.js';
export type { WebSocketPort, WebSocketEvents } from '../websocket/web-socket-port.js';
