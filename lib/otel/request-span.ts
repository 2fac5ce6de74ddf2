import { context, SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { IncomingRequest, LogFields, RequestContext, RequestTelemetry, RouteInfo } from '../index.js';
import { errorType } from './error-type.js';
import type { HttpMetrics } from './http-metrics.js';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_URL_PATH,
  ATTR_URL_QUERY,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
  KNOWN_METHODS,
} from './semantic-conventions.js';

/**
 * One request as OpenTelemetry follows it: its SERVER span (a child of the incoming trace, if
 * any), active while the request is served, named and labelled with the route once routed, and
 * ended with the status; the duration histogram and the active-requests counter.
 *
 * @example
 * const telemetry = new RequestSpan(tracer, httpMetrics, incoming, parentContext, false, ctx);
 * telemetry.run(() => serve());
 */
export class RequestSpan implements RequestTelemetry {
  private readonly span: Span;
  private readonly active: Context;
  private readonly method: string;
  private readonly scheme: string;
  /** Method and scheme: the active-requests counter's attributes, up and down alike. */
  private readonly activeAttributes: Attributes;
  private readonly started = performance.now();
  private route: string | undefined = undefined;
  private error: unknown = undefined;
  private ended = false;

  constructor(
    tracer: Tracer,
    private readonly metrics: HttpMetrics,
    incoming: IncomingRequest,
    parent: Context,
    captureQuery: boolean,
    /** `client.address` is the app's client address (its trusted-proxy rule), not the socket peer. */
    request: Pick<RequestContext, 'clientAddress'>,
  ) {
    const original = incoming.method;
    this.method = KNOWN_METHODS.has(original) ? original : '_OTHER';
    this.scheme = incoming.scheme ?? 'http';
    this.span = tracer.startSpan(this.method === '_OTHER' ? 'HTTP' : this.method, { kind: SpanKind.SERVER }, parent);
    // Attributes cost a few objects per request: made only when an SDK records the span.
    if (this.span.isRecording()) this.span.setAttributes(requestAttributes(incoming, request, this.method, this.scheme, captureQuery));
    this.active = trace.setSpan(parent, this.span);
    this.activeAttributes = { [ATTR_HTTP_REQUEST_METHOD]: this.method, [ATTR_URL_SCHEME]: this.scheme };
    this.metrics.active.add(1, this.activeAttributes);
  }

  run<T>(fn: () => T): T {
    return context.with(this.active, fn);
  }

  bind<F extends (...args: never[]) => unknown>(fn: F): F {
    return context.bind(this.active, fn);
  }

  routed(route: RouteInfo): void {
    this.route = route.path;
    this.span.updateName(`${this.method === '_OTHER' ? 'HTTP' : this.method} ${route.path}`);
    this.span.setAttribute(ATTR_HTTP_ROUTE, route.path);
  }

  failed(error: unknown): void {
    this.error = error;
  }

  end(status: number): void {
    if (this.ended) return;
    this.ended = true;
    // A 5xx's error type: the error that became it, else its status code.
    const failure = status >= 500 ? errorType(this.error, String(status)) : undefined;
    this.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
    if (failure !== undefined) {
      this.span.setAttribute(ATTR_ERROR_TYPE, failure);
      // Server spans: 5xx is an error, 4xx is the client's (the conventions leave it unset).
      this.span.setStatus({ code: SpanStatusCode.ERROR });
      if (this.error instanceof Error) this.span.recordException(this.error);
    }
    this.span.end();
    const attributes: Attributes = { ...this.activeAttributes, [ATTR_HTTP_RESPONSE_STATUS_CODE]: status };
    if (this.route !== undefined) attributes[ATTR_HTTP_ROUTE] = this.route;
    if (failure !== undefined) attributes[ATTR_ERROR_TYPE] = failure;
    this.metrics.duration.record((performance.now() - this.started) / 1000, attributes);
    this.metrics.active.add(-1, this.activeAttributes);
  }

  logBindings(): LogFields {
    const spanContext = this.span.spanContext();
    return trace.isSpanContextValid(spanContext) ? { trace_id: spanContext.traceId, span_id: spanContext.spanId } : {};
  }
}

function requestAttributes(incoming: IncomingRequest, request: Pick<RequestContext, 'clientAddress'>, method: string, scheme: string, captureQuery: boolean): Attributes {
  const attributes: Attributes = { [ATTR_HTTP_REQUEST_METHOD]: method, [ATTR_URL_PATH]: incoming.path, [ATTR_URL_SCHEME]: scheme };
  if (method === '_OTHER') attributes[ATTR_HTTP_REQUEST_METHOD_ORIGINAL] = incoming.method;
  if (captureQuery && incoming.search !== '') attributes[ATTR_URL_QUERY] = incoming.search;
  const host = incoming.header('host');
  if (host !== null) {
    const { address, port } = splitHost(host);
    attributes[ATTR_SERVER_ADDRESS] = address;
    attributes[ATTR_SERVER_PORT] = port ?? (scheme === 'https' ? 443 : 80);
  }
  const client = request.clientAddress;
  if (client !== undefined) attributes[ATTR_CLIENT_ADDRESS] = client;
  const agent = incoming.header('user-agent');
  if (agent !== null) attributes[ATTR_USER_AGENT_ORIGINAL] = agent;
  if (incoming.protocolVersion !== undefined) attributes[ATTR_NETWORK_PROTOCOL_VERSION] = incoming.protocolVersion;
  return attributes;
}

/** `example.com:8080` -> address and port; `[::1]:3000` keeps the brackets off the address. */
function splitHost(host: string): { address: string; port: number | undefined } {
  const match = /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(host);
  if (match === null) return { address: host, port: undefined };
  const address = (match[1] ?? host).replace(/^\[(.*)\]$/, '$1');
  return { address, port: match[2] === undefined ? undefined : Number(match[2]) };
}
