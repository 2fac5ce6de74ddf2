// The internal entry: what Tessera's own satellites (auth, OpenAPI, middleware, testing, client,
// the adapters, the facade) share with the core beyond the public API. It is bundled into them
// and is not in the package's `exports` map: nothing here is a promise to applications, and
// names move between releases. Applications import `tessera-http` (lib/index.ts).
export * from './index.js';

// The request path, for the adapters.
export { responseOf, type ResponseSource } from './app/reply.js';
export { generalDispatchOf, respondingRoutesOf } from './app/responding-routes.js';
export type { RouteResponder, RespondingRoute } from './app/dispatch.js';
export { nativeRouteTable, mayRouteNatively } from './routing/native-routes.js';
export type { RouterEntry } from './routing/router.js';
export { serverClose } from './app/server-close.js';

// Building blocks of the request path and of other front ends (the facade, the adapters).
export { controllerFromParts } from './routing/controller.js';
export { routeFromParts, type RouteHelper, type RouteParts } from './routing/route.js';
export { webSocketRoute } from './routing/web-socket-route.js';
export type { WebSocketSpec } from './routing/web-socket-spec.js';
export { settleUpgrade, type AcceptedUpgrade, type WebSocketUpgrader } from './websocket/upgrade-answer.js';
export type { PendingWebSocket } from './websocket/web-socket-session.js';
export type { WebSocketPort, WebSocketEvents } from './websocket/web-socket-port.js';
export { ALLOWED_ORIGINS, ORIGIN_POLICY, originPolicyOf, compileOriginPolicy, OWN_ORIGIN_ONLY, type CompiledOriginPolicy } from './context/origin-policy.js';
export { TopicTable, type TopicUpstream } from './pubsub/topic-table.js';
export { callHandler } from './pubsub/pub-sub.js';
export { EngineOutage } from './resilience/engine-outage.js';
export { unrefTimer } from './common/unref-timer.js';
export { within, TIMED_OUT } from './resilience/within.js';
export { startHeartbeat } from './resilience/heartbeat.js';
export type { RouteShape } from './context/route-info.js';
export { joinPaths, routeShape } from './routing/path.js';
export { readDecoratedMetadata, metadataRecord } from './common/metadata.js';
export { DEFINITION, hasDefinition, type DefinitionCarrier } from './common/definition-carrier.js';
export { incomingFromRequest, incomingOfRoutedRequest } from './http/fetch-incoming.js';
export { limitBody, readStreamWithLimit, tooLarge } from './http/body-limit.js';
export { statusText } from './http/status-text.js';
export { parseRequestTarget, normalizeHost, type RequestTarget } from './http/request-target.js';
export { toResponse, type SharedHeadersForm } from './http/answer.js';
export { requestScheme } from './context/request-scheme.js';
export { answerStepOf, MadeAnswer, type AnswerStep } from './app/answer-step.js';
export { checkedClock, ClockError } from './common/clock.js';
export { integerAtLeast } from './common/integer-at-least.js';
export { FixedWindowRule } from './rate-limit/fixed-window-rule.js';

// Addresses and networks, for auth's API-key restrictions and throttling keys.
export { parseIpAddress, type IpAddress } from './network/ip-address.js';
export { compileAllowedCidrs, type AllowedCidrs } from './network/allowed-cidrs.js';
export { MalformedStoredCidrError } from './network/cidr-errors.js';
export { CLIENT_ADDRESS_RULE, type ClientAddressRule } from './network/client-address-rule.js';
export { encodeBase64, decodeBase64, type Base64Alphabet } from './common/base64.js';
export { BoundedCache, type BoundedCacheOptions } from './common/bounded-cache.js';
export type { SchemaSide, ZodNode, ZodDef, ZodBag, ZodInternals } from './schema/zod-internals.js';
export type { ZodSchema } from './schema/zod-schema.js';
export { compileSchemaParser, parseResultOf, type SchemaParser, type SchemaParseResult } from './schema/schema-parser.js';
export { toSchemaIssue, type SchemaIssue } from './schema/schema-issues.js';
export { compileResponseWriter, type ResponseWriter } from './schema/response-writer.js';
export { ACCESS_PUBLIC, ACCESS_ROLES, ACCESS_SCOPES, readAccessRules, type AccessRules } from './common/access-metadata.js';
export { LIBRARY_TELEMETRY_KEY, LIBRARY_TELEMETRY, type LibraryTelemetry, type TelemetryAttributes, type TelemetryCounter, type TelemetryHistogram } from './common/library-telemetry.js';
