import type { RouteInfo } from './route-info.js';
import type { LogFields, Logger } from '../logging/logger.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import { parseQuery } from '../http/query.js';
import type { ClientAddressReader } from '../network/client-address.js';
import { SOCKET_PEER_RULE } from '../network/client-address-rule.js';

/**
 * An origin policy (`createApp`'s `origins`, see `OriginPolicy` in origin-policy.ts) compiled
 * once at boot. Declared here, beside the context that carries it, so that file and this one do
 * not import each other.
 *
 * @example
 * const policy = compileOriginPolicy(['https://app.example.com']);
 * policy.names('https://app.example.com', ctx); // true
 */
export interface CompiledOriginPolicy {
  /** Whether the app was given a policy; false: no origin besides its own. */
  readonly configured: boolean;
  /** `'*'`: every origin (CORS answers `*`, WebSockets admit any). */
  readonly anyOrigin: boolean;
  /** Whether the app named this origin, by its list or its function; `'*'` names none (the CSRF check's question). */
  names(origin: string, ctx: RequestContext): boolean;
  /** Whether the origin may call: named, or any under `'*'` (CORS's and the WebSocket handshake's question). */
  admits(origin: string, ctx: RequestContext): boolean;
}

/** The origin policy of an app given none: no origin besides its own. */
export const OWN_ORIGIN_ONLY: CompiledOriginPolicy = Object.freeze({ configured: false, anyOrigin: false, names: () => false, admits: () => false });

/**
 * What the app decided once for every request (`createApp`'s `clientAddress` and `origins`), which
 * the context reads instead of each reader configuring its own.
 *
 * @example
 * new Context(incoming, params, route, bodyLimit, logger, { clientAddress: rule.read, origins: compileOriginPolicy(list) });
 */
export interface RequestPolicies {
  /** The app's client-address rule; `ctx.clientAddress` reads through it. */
  readonly clientAddress: ClientAddressReader;
  /** The app's origin policy: CORS, the WebSocket handshake and the CSRF check read it. */
  readonly origins: CompiledOriginPolicy;
}

/** The policies of an app given neither option: the socket peer is the client, no other origin. */
export const DEFAULT_POLICIES: RequestPolicies = Object.freeze({ clientAddress: SOCKET_PEER_RULE.read, origins: OWN_ORIGIN_ONLY });

/**
 * What the core's context needs from whoever follows requests (the app's instrumentation);
 * see `RequestTelemetry` in lib/app/instrumentation.ts, which extends it.
 */
export interface ContextTelemetry {
  bind<F extends (...args: never[]) => unknown>(fn: F): F;
  routed(route: RouteInfo): void;
  failed(error: unknown): void;
  logBindings(): LogFields;
}

/**
 * A typed slot in the request context's state, for what guards attach (the current user,
 * the current API key) and handlers read.
 *
 * @example
 * const TENANT = createStateKey<string>('tenant');
 * ctx.set(TENANT, 'acme');
 * ctx.get(TENANT); // 'acme'
 */
export interface StateKey<T> {
  readonly name: string;
  /** Type carrier only. */
  readonly __type?: T;
}

/**
 * Creates a state key. Keys compare by identity, so two libraries can both use the name `'user'`.
 *
 * @example
 * const CURRENT_USER = createStateKey<Claims>('auth:user');
 */
export function createStateKey<T>(name: string): StateKey<T> {
  return Object.freeze({ name }) as StateKey<T>;
}

/**
 * One object per request, the one context type middleware, guards, interceptors and handlers
 * all see. A handler sees it typed: `params` from the route's path, `body` and `query` from its
 * schemas (the type parameters); everything else reads it untyped.
 *
 * @example
 * get('/whoami', (ctx) => ({ ip: ctx.clientAddress, agent: ctx.header('user-agent') }));
 * const guard = (ctx: RequestContext) => ctx.header('x-api-key') !== null;
 */
export interface RequestContext<
  Params extends object = Readonly<Record<string, string>>,
  Body = unknown,
  Query = unknown,
> {
  /** The web-standard Request; built on first access when the runtime adapter did not have one. */
  readonly request: Request;
  readonly method: string;
  /** The request path as sent (percent-encoded), without the query. */
  readonly path: string;
  /**
   * Path parameters, URL-decoded. In a handler, exactly those of the route's path (with the
   * controller prefix's when the route was built by the helpers `routes` receives).
   */
  readonly params: Params;
  /** The query: the route's validated query when it has a schema, else the parsed query string. */
  readonly query: Query;
  /** The validated body on routes with a body schema; undefined elsewhere. */
  readonly body: Body;
  /** The matched route; undefined before routing (in middleware) and for raw routes (`app.addRawRoute`). */
  readonly route: RouteInfo | undefined;
  /**
   * The client's address in canonical form (IPv4-mapped IPv6 read as IPv4), decided by the app's
   * one rule (`createApp`'s `clientAddress`: the socket peer by default, the address the
   * trusted proxies saw behind them); undefined when it cannot be determined (an in-process call,
   * a runtime that does not tell, a forwarded entry that is missing or not an address).
   */
  readonly clientAddress: string | undefined;
  /** Aborted when the client goes away. */
  readonly signal: AbortSignal;
  /**
   * The platform's environment: on Workers the bindings (`fetch(request, env)`), else undefined.
   * Typed by the application: `ctx.env as Env`.
   */
  readonly env: unknown;
  /**
   * The request's logger: the app's logger bound to this request (its id when the request-id
   * middleware has run, method, path, route template once routed, and `trace_id`/`span_id` when
   * a trace follows it). Made on first use.
   */
  readonly log: Logger;
  /** A request header by name (case-insensitive). */
  header(name: string): string | null;
  get<T>(key: StateKey<T>): T | undefined;
  set<T>(key: StateKey<T>, value: T): void;
}

const NO_MATCHED_PARAMS: Readonly<Record<string, string>> = Object.freeze({});
/** Marks the client address as not yet decided (undefined is a decided answer). */
const UNDECIDED: unique symbol = Symbol('undecided');

/** The core's RequestContext. Lazy wherever the work might not be needed. */
export class Context implements RequestContext {
  body: unknown = undefined;
  private parsedQuery: unknown = undefined;
  private state: Map<StateKey<unknown>, unknown> | undefined = undefined;
  private requestLog: Logger | undefined = undefined;
  private decidedAddress: string | undefined | typeof UNDECIDED = UNDECIDED;
  /** The request's telemetry when the app's instrumentation follows it. */
  telemetry: ContextTelemetry | undefined = undefined;
  /**
   * The parameters the router found before the middleware ran (a route's responder is reached
   * after routing), entered with the route where the general walk would ask the router.
   */
  matchedParams: Readonly<Record<string, string>> = NO_MATCHED_PARAMS;
  /**
   * The router's refusal (no route, another method, a malformed path) when `app.handle` matched
   * before the middleware ran: the general walk answers it where it would ask the router, so a
   * request no route matches is routed once. Typed by the dispatch, which alone sets and reads it.
   */
  refused: unknown = undefined;

  constructor(
    /** The request; replaced by its detached view once a WebSocket upgrade is accepted (see `detach`). */
    public incoming: IncomingRequest,
    public params: Readonly<Record<string, string>>,
    public route: RouteInfo | undefined,
    /** The body limit of the request: the app's until routing, then the route's. */
    public bodyLimit: number,
    /** The app's logger, which `log` binds to this request. */
    private readonly appLogger: Logger,
    /** What the app decided for every request: its client-address rule (asked on first read) and origin policy. */
    readonly policies: RequestPolicies = DEFAULT_POLICIES,
  ) {}

  /** Called by the core once the router has matched: the route, its parameters and body limit. */
  enterRoute(params: Readonly<Record<string, string>>, route: RouteInfo | undefined, bodyLimit: number): void {
    this.params = params;
    this.route = route;
    this.bodyLimit = bodyLimit;
    if (route !== undefined) this.telemetry?.routed(route);
  }

  /**
   * A WebSocket's context outlives its request: once the upgrade is accepted, the context reads
   * the request's detached view (`IncomingRequest.detach`), so the socket does not hold the
   * runtime's request objects for its whole life.
   */
  detach(socket: { readonly signal: AbortSignal }): void {
    this.incoming = this.incoming.detach?.(socket) ?? this.incoming;
  }

  get log(): Logger {
    if (this.requestLog === undefined) {
      const bindings: Record<string, unknown> = { method: this.incoming.method, path: this.incoming.path };
      const requestId = this.state?.get(REQUEST_ID_SLOT);
      if (requestId !== undefined) bindings.requestId = requestId;
      if (this.route !== undefined) bindings.route = `${this.route.method} ${this.route.path}`;
      if (this.telemetry !== undefined) Object.assign(bindings, this.telemetry.logBindings());
      this.requestLog = this.appLogger.child(bindings);
    }
    return this.requestLog;
  }

  get request(): Request {
    return this.incoming.toRequest(this.bodyLimit);
  }
  get method(): string {
    return this.incoming.method;
  }
  get path(): string {
    return this.incoming.path;
  }
  get clientAddress(): string | undefined {
    if (this.decidedAddress === UNDECIDED) {
      const incoming = this.incoming;
      this.decidedAddress = this.policies.clientAddress({ socketAddress: incoming.clientAddress, forwardedFor: incoming.header('x-forwarded-for') });
    }
    return this.decidedAddress;
  }
  get signal(): AbortSignal {
    return this.incoming.signal;
  }
  get env(): unknown {
    return this.incoming.env;
  }
  get query(): unknown {
    if (this.parsedQuery === undefined) this.parsedQuery = parseQuery(this.incoming.search);
    return this.parsedQuery;
  }
  set query(value: unknown) {
    this.parsedQuery = value;
  }
  header(name: string): string | null {
    return this.incoming.header(name.toLowerCase());
  }
  get<T>(key: StateKey<T>): T | undefined {
    return this.state?.get(key) as T | undefined;
  }
  set<T>(key: StateKey<T>, value: T): void {
    (this.state ??= new Map()).set(key, value);
  }
}

/**
 * Where the request id lives in the request context: the `requestId()` middleware of
 * `tessera-http/middleware` sets it; request logs and the access line read it. Defined here,
 * beside the context that binds it into `ctx.log` (re-exported as REQUEST_ID).
 */
export const REQUEST_ID_SLOT: StateKey<string> = createStateKey<string>('request-id');
