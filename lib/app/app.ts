import type { Logger } from '../logging/logger.js';
import type { InjectionToken } from '../di/token.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { Reply } from './reply.js';
import type { RequestContext } from '../context/request-context.js';
import type { RouteInfo } from '../context/route-info.js';
import type { WebSockets } from '../websocket/web-socket-hub.js';

/**
 * The handler of a raw route added with `app.addRawRoute`: no guards, interceptors or
 * validation (app middleware still runs around it, as around every request).
 *
 * @example
 * app.addRawRoute('GET', '/healthz', () => new Response('ok'));
 */
export type RawRouteHandler = (ctx: RequestContext) => Response | Promise<Response>;

/**
 * What `app.listen` delegates to: a runtime's server adapter, given to `createApp` as `server`
 * (`nodeServer` from `tessera-http/node`). The core itself starts no server.
 *
 * @example
 * const app = await createApp(AppModule, { server: nodeServer });
 * await app.listen(3000);
 */
export type ServerAdapter = (app: App, options: { readonly port?: number | undefined; readonly host?: string | undefined }) => Promise<ListeningServer>;

/**
 * A running server started by `app.listen`.
 *
 * @example
 * const server = await app.listen(3000);
 * console.log(server.url);
 * await server.close();
 */
export interface ListeningServer {
  readonly port: number;
  readonly host: string;
  readonly url: string;
  /** Stops accepting connections, lets requests in flight finish, then resolves. */
  close(): Promise<void>;
}

/**
 * An application: one `fetch` entry point that any fetch runtime can call, plus the route
 * table, provider access and lifecycle.
 *
 * @example
 * const app = await createApp(AppModule);
 * const res = await app.fetch(new Request('http://localhost/hello/Ada'));
 * export default app; // Bun, Deno and Workers call app.fetch
 */
export interface App {
  /**
   * Answers one request. Bound, so `Deno.serve(app.fetch)` works. The second argument is the
   * platform's environment (Workers bindings), seen as `ctx.env`. For the client address on Bun
   * and Deno, serve `toFetchHandler(app)` from `tessera-http/fetch` instead.
   */
  readonly fetch: (request: Request, env?: unknown) => Response | Promise<Response>;
  /**
   * Answers one request for a runtime adapter, without requiring a Request object: calls `reply`
   * exactly once with the answer (errors are answers by then), possibly before it returns. The
   * Node adapter writes the answer from `reply`; `fetch` turns it into a Response.
   *
   * @example
   * app.handle(incomingFromNodeRequest(req, res), (answer) => writeAnswerSomehow(res, answer));
   */
  handle(incoming: IncomingRequest, reply: Reply): void;
  /**
   * Answers one request in process, for tests and scripts: a path (`'/posts?page=2'`, resolved
   * against `http://localhost`), a URL, or a Request, with optional RequestInit.
   *
   * @example
   * const res = await app.request('/posts', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Hi"}' });
   */
  request(input: string | URL | Request, init?: RequestInit): Promise<Response>;
  /** The app's logger (the `logger` option, else `jsonLogger()`); adapters report through it too. */
  readonly logger: Logger;
  /** The public route table, in registration order. */
  readonly routes: readonly RouteInfo[];
  /**
   * The open WebSockets: their count, `publish(topic, data)` to every subscriber of a topic, and
   * `close()`, which the server adapters' `close` and `app.close()` run (1001, a grace, then drop).
   */
  readonly webSockets: WebSockets;
  /**
   * A built provider: the one visible from the root module, else the first module (in init order)
   * that provides the token, else one a module declared with this class under another token; or a
   * controller (a class controller's instance; `TestingApp` also types a `defineController`'s routes).
   */
  get<T>(token: InjectionToken<T>): T;
  /** Adds a raw route that bypasses guards, interceptors and validation (used by `serveOpenApi`). */
  addRawRoute(method: string, path: string, handler: RawRouteHandler): void;
  /**
   * Binds a real socket through the app's server adapter: the one given to `createApp` as
   * `server`, else the runtime's own when `tessera-http` was resolved on Node, Bun or Deno. Without
   * one (a Workers or browser bundle) it throws `SERVER_ADAPTER_MISSING`.
   *
   * @example
   * const server = await app.listen(3000, '0.0.0.0');
   */
  listen(port?: number, host?: string): Promise<ListeningServer>;
  /**
   * Starts draining: readiness (`health` option) answers 503 from now on, and the promise
   * resolves after the health option's `drainDelayMs`, so a balancer stops sending before the
   * listener closes. Every server adapter's `close` calls it first; calling it again returns the
   * same promise.
   *
   * @example
   * process.once('SIGTERM', async () => { await server.close(); await app.close(); }); // close drains first
   */
  drain(): Promise<void>;
  /**
   * Drains (see `drain`), closes the open WebSockets (see `webSockets.close`), then runs shutdown
   * hooks (`beforeModuleDestroy` on every instance, then `onModuleDestroy`, then `onApplicationShutdown`).
   */
  close(): Promise<void>;
}
