import type { App } from './app.js';

/**
 * The one shutdown sequence every server adapter's `close` runs (Node, Bun, Deno): the app
 * drains first (readiness answers 503 and its drain delay passes while the listener still
 * accepts, so a balancer stops sending), then its WebSockets get their 1001 while the server
 * stops accepting and finishes its HTTP requests, in parallel. `stopServer` is the runtime's own
 * part (Node's graceful close, Bun's `stop()`, Deno's `shutdown()`). The close it returns runs
 * the sequence once: calling it again returns the same promise. An app without `drain` or
 * `webSockets` (a hand-made `{ handle }` served on Node) skips those steps.
 *
 * @example
 * close: serverClose(app, () => server.shutdown()),
 */
export function serverClose<Options = undefined>(
  app: Partial<Pick<App, 'drain' | 'webSockets'>>,
  stopServer: (options: Options | undefined) => Promise<void> | void,
): (options?: Options) => Promise<void> {
  let closed: Promise<void> | undefined;
  return (options) => {
    closed ??= (app.drain?.() ?? Promise.resolve()).then(async () => {
      await Promise.all([app.webSockets?.close(), stopServer(options)]);
    });
    return closed;
  };
}
