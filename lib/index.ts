// The core entry point, `tessera-http`. Explicit named exports only; nothing internal leaks.
export { createApp, type AppOptions } from './app/create-app.js';
export type { App, ListeningServer, RawRouteHandler, ServerAdapter } from './app/app.js';
export type { Reply } from './app/reply.js';
export { type Middleware, type ErrorHandler, type NotFoundHandler } from './context/middleware.js';
export { withHeaders, headerOf } from './http/with-headers.js';
export { ifNoneMatchMatches } from './http/if-none-match.js';
export type { Guard, GuardToken } from './context/guard.js';
export type { Interceptor, InterceptorToken } from './context/interceptor.js';
export type { OnModuleInit, BeforeModuleDestroy, OnModuleDestroy, OnApplicationShutdown } from './app/lifecycle.js';
export type { ResponseEvent, ResponseObserver } from './app/response-observer.js';
export type { AccessLogOptions } from './app/access-log.js';

export { defineModule, type ModuleDefinition, type ModuleInput, type ModuleOptions } from './modules/module.js';
export {
  defineProvider,
  defineFactory,
  type ProviderInput,
  type ClassProvider,
  type FactoryProvider,
  type ValueProvider,
  type ExistingProvider,
  type Constructor,
  type ClassProviderDefinition,
} from './di/provider.js';
export { createToken, type Token, type InjectionToken, type ClassToken, type TokenValue } from './di/token.js';
export { MissingProviderError, ProviderNotVisibleError, CircularDependencyError, ModuleGraphError, ProviderDefinitionError, ProviderBuildError } from './di/di-errors.js';
export { defineConfig, type Config, type ConfigOptions, type Frozen } from './config/define-config.js';
export { ConfigError, type ConfigProblem } from './config/config-error.js';
export { ENV, processEnv, type ConfigSource } from './config/env.js';

export {
  defineController,
  type ControllerDefinition,
  type ControllerInput,
  type ControllerOptions,
  type RouteMap,
} from './routing/controller.js';
export {
  get,
  post,
  put,
  patch,
  del,
  type RouteHelper,
  type RouteDefinition,
  type RouteOptions,
  type Handler,
  type HttpMethod,
  type Schema,
  type RouteTypes,
  type RouteTypesOf,
  type ParamsSchema,
  type ParsedParams,
} from './routing/route.js';
export type { RouteInfo } from './context/route-info.js';
export type { StandardSchemaV1 } from './schema/standard-schema.js';
export type { SchemaInput, SchemaOutput } from './schema/schema-types.js';
export { isZodSchema, schemaVendor } from './schema/zod-schema.js';
export type { PathParams } from './routing/path.js';
export { ws, type WebSocketRouteHelper, type WebSocketRouteOptions } from './routing/web-socket-route.js';
export type { RouteHelpers } from './routing/route-helpers.js';
export type {
  WebSocketConnection,
  WebSocketHandlers,
  WebSocketOptions,
  WebSocketIncoming,
  WebSocketOutgoing,
  WebSocketClientMessage,
  WebSocketRouteTypes,
} from './routing/web-socket-spec.js';
export { WEB_SOCKETS, type WebSockets } from './websocket/web-socket-hub.js';
export { CREDENTIAL_EXPIRES_AT } from './websocket/credential-expiry.js';
export { inProcessPubSub, PUB_SUB, type PubSub, type TopicHandler, type InProcessPubSubOptions, type PublishOptions } from './pubsub/pub-sub.js';
export type { BusStats } from './pubsub/app-bus.js';
export { TESSERA_PROTOCOL, BEARER_PROTOCOL_PREFIX } from './websocket/handshake.js';

export { createMetadataKey, readMetadata, readRouteMetadata, type MetadataKey, type MetadataEntry, type MetadataCombine } from './common/metadata.js';
export type { GraphOverrides } from './modules/container.js';
export { createStateKey, type StateKey, type RequestContext } from './context/request-context.js';
export { REQUEST_ID, getRequestId } from './context/request-id.js';
export type { IncomingRequest } from './http/incoming-request.js';
export { jsonAnswer, type PlainAnswer, type Answer } from './http/answer.js';
export type { QueryRecord } from './http/query.js';
export { problemAnswer, type ProblemDetails } from './http/problem.js';
export { LOGGER, type Logger, type LogFields, type LogLevel } from './logging/logger.js';
export { jsonLogger, silentLogger, type JsonLoggerOptions } from './logging/json-logger.js';
export type { HealthCheck, SharedEngineCheckOptions } from './common/health-check.js';
export type { HealthOptions } from './app/health.js';
export { pubSubHealthCheck } from './pubsub/pub-sub-health-check.js';
export type { RateLimitCounter, RateLimitCounterOptions, RateLimitWindow, WindowedRateLimitCounter } from './rate-limit/rate-limit-counter.js';
export { InMemoryRateLimitCounter } from './rate-limit/in-memory-rate-limit-counter.js';
export { createClientAddressReader, type ClientAddressOptions, type ClientAddressInput, type ClientAddressReader } from './network/client-address.js';
export { createTrustedProxyMatcher, type TrustedProxyMatcher } from './network/trusted-proxy.js';
export type { OriginPolicy } from './context/origin-policy.js';
export { getCookie, getCookies, setCookie, deleteCookie, serializeCookie, type CookieOptions, type HeaderSource } from './http/cookies.js';
export { parseAllowedCidrs } from './network/allowed-cidrs.js';
export { InvalidCidrError, CidrHostBitsError } from './network/cidr-errors.js';
export { idempotent, type IdempotencyOptions } from './idempotency/idempotent.js';
export { IDEMPOTENCY_STORE, type IdempotencyClaim, type IdempotencyStore } from './idempotency/idempotency-store.js';
export { InMemoryIdempotencyStore, type InMemoryIdempotencyStoreOptions } from './idempotency/in-memory-idempotency-store.js';
export type { Instrumentation, RequestTelemetry } from './app/instrumentation.js';
export {
  HttpException,
  isHttpException,
  type HttpExceptionOptions,
  BadRequestException,
  UnauthorizedException,
  ForbiddenException,
  NotFoundException,
  MethodNotAllowedException,
  ConflictException,
  PayloadTooLargeException,
  UnsupportedMediaTypeException,
  UnprocessableEntityException,
  TooManyRequestsException,
  InternalServerErrorException,
  ServiceUnavailableException,
} from './http/http-exception.js';
export { TesseraError, isTesseraError } from './common/tessera-error.js';
export { RouteDefinitionError } from './routing/route-definition-error.js';
export { systemClock, createManualClock, type Clock, type ManualClock } from './common/clock.js';
