// The stable HTTP server semantic conventions of OpenTelemetry (attribute names, the duration
// histogram's buckets), written out rather than imported: @opentelemetry/semantic-conventions
// would be a second runtime dependency for a handful of strings.

export const ATTR_HTTP_REQUEST_METHOD = 'http.request.method';
export const ATTR_HTTP_REQUEST_METHOD_ORIGINAL = 'http.request.method_original';
export const ATTR_HTTP_RESPONSE_STATUS_CODE = 'http.response.status_code';
export const ATTR_HTTP_ROUTE = 'http.route';
export const ATTR_URL_PATH = 'url.path';
export const ATTR_URL_QUERY = 'url.query';
export const ATTR_URL_SCHEME = 'url.scheme';
export const ATTR_SERVER_ADDRESS = 'server.address';
export const ATTR_SERVER_PORT = 'server.port';
export const ATTR_CLIENT_ADDRESS = 'client.address';
export const ATTR_USER_AGENT_ORIGINAL = 'user_agent.original';
export const ATTR_NETWORK_PROTOCOL_VERSION = 'network.protocol.version';
export const ATTR_ERROR_TYPE = 'error.type';

export const METRIC_HTTP_SERVER_REQUEST_DURATION = 'http.server.request.duration';
export const METRIC_HTTP_SERVER_ACTIVE_REQUESTS = 'http.server.active_requests';

/** The buckets the conventions advise for `http.server.request.duration`, seconds. */
export const DURATION_BUCKETS_SECONDS: readonly number[] = Object.freeze([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10]);

/** Methods the conventions name; any other is reported as `_OTHER` (bounded cardinality). */
export const KNOWN_METHODS: ReadonlySet<string> = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE', 'QUERY']);
