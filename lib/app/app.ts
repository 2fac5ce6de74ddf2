import type { InjectionToken } from '../di/token.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { Outcome } from '../http/plain-response.js';
import type { RequestContext } from '../http/request-context.js';
import type { RouteInfo } from '../routing/route-info.js';

/**
 * A handler mounted with `app.mount`: it bypasses guards, interceptors and validation.
 *
 * @example
 * app.mount('GET', '/healthz', () => new Response('ok'));
 */
export type MountedHandler = (ctx: RequestContext) => Response | Promise<Response>;

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
  /** Serves one request. Bound, so `Deno.serve(app.fetch)` works. The second argument is whatever the runtime passes (Bun's server, Deno's info, Workers' env). */
  readonly fetch: (request: Request, platform?: unknown) => Promise<Response>;
  /** Serves one request from a runtime adapter without requiring a Request object. */
  handle(incoming: IncomingRequest): Outcome | Promise<Outcome>;
  /** The public route table, in registration order. */
  readonly routes: readonly RouteInfo[];
  /** A built provider: the one visible from the root module, else the first module (in init order) that provides the token. */
  get<T>(token: InjectionToken<T>): T;
  /** Adds a raw route that bypasses guards and interceptors (used by `serveOpenApi`). */
  mount(method: string, path: string, handler: MountedHandler): void;
  /** Serves the app on Node over a real socket (see `tessera-http/node` for options). */
  listen(port?: number, host?: string): Promise<ListeningServer>;
  /** Runs shutdown hooks (`onModuleDestroy`, then `onApplicationShutdown`). */
  close(): Promise<void>;
}
