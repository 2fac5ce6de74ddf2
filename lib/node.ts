// The `tessera-http/node` entry point: the Node server adapter. Explicit named exports only.
// `createApp(root, { server: nodeServer })` makes `app.listen(port)` use it; `serve(app, options)` takes every option.

/**
 * Serves an app on Node's `http` module with timeouts, lazy `100 Continue` and graceful close.
 *
 * @example
 * import { serve } from 'tessera-http/node';
 * const server = await serve(app, { port: 8080, host: '0.0.0.0' });
 * await server.close();
 */
export { serve, nodeServer } from './adapters/node/serve.js';

/**
 * Options of `serve`: port, host, the slow-client timeouts, body draining and the error logger.
 *
 * @example
 * const options: ServeOptions = { port: 0, headersTimeout: 5_000, requestTimeout: 20_000 };
 */
export type { ServeOptions } from './adapters/node/serve.js';

/**
 * What `serve` resolves to: port, host, url, `close({ forceAfterMs })` and the `http.Server`.
 *
 * @example
 * const server: NodeServer = await serve(app, { port: 0 });
 * server.server.on('upgrade', onUpgrade);
 */
export type { NodeServer } from './adapters/node/serve.js';
export type { CloseOptions } from './adapters/node/graceful-close.js';

/**
 * A `request` listener for a server you create yourself, such as `https.createServer`.
 *
 * @example
 * https.createServer({ key, cert }, createRequestListener(app)).listen(443);
 */
export { createRequestListener, type RequestListenerOptions } from './adapters/node/node-listeners.js';

/**
 * The core's IncomingRequest over a Node request/response pair, for adapters of your own.
 *
 * @example
 * const outcome = await app.handle(incomingFromNodeRequest(req, res));
 */
export { incomingFromNodeRequest, type NodeIncomingOptions } from './adapters/node/node-incoming.js';

/**
 * Brotli for the compression middleware of `tessera-http/middleware`.
 *
 * @example
 * compression({ encoders: { br: brotliEncoder } });
 */
export { brotliEncoder } from './adapters/node/brotli-encoder.js';

/**
 * An interactive API reference (Swagger UI, from local assets) for the app's OpenAPI document.
 *
 * @example
 * serveApiReference(app, '/docs', { specUrl: '/openapi.json' });
 */
export { serveApiReference, type ApiReferenceOptions } from './adapters/node/api-reference.js';

/**
 * Serves a directory's files with types, ETag/Last-Modified, ranges and no path traversal.
 *
 * @example
 * serveStatic(app, '/assets', './public');
 */
export { serveStatic, type ServeStaticOptions } from './adapters/node/serve-static.js';
