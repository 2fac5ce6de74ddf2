// The WebSocket subprotocol names the server and the typed client share: declared once, with no
// import, so that a browser bundle of the client takes these two strings and nothing else.

/** The subprotocol every WebSocket route accepts (see `WebSocketOptions.protocols`). */
export const TESSERA_PROTOCOL = 'tessera';

/**
 * The prefix of a subprotocol entry that carries a bearer token from a browser, which cannot set
 * `Authorization` on a WebSocket: `new WebSocket(url, ['tessera', 'tessera.bearer.' + token])`.
 * Such an entry is never chosen nor echoed.
 */
export const BEARER_PROTOCOL_PREFIX = 'tessera.bearer.';

/**
 * The subprotocol that says "every text message is JSON": the typed client offers it before
 * `tessera`, and a route with a `message` schema (which JSON-parses every text message) chooses
 * it, unless one of the route's own `protocols` came first. On a socket that speaks it, the typed
 * client sends a string as JSON too, so `'123'` arrives as the string it is.
 */
export const JSON_PROTOCOL = 'tessera.json';
