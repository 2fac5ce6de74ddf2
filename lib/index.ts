// The core entry point, `tessera-http`. Explicit named exports only; nothing internal leaks.
export { createApp, type AppOptions } from './app/create-app.js';
export type { App, ListeningServer, RawRouteHandler } from './app/app.js';
export { composeMiddleware, type Middleware, type ErrorMapper, type NotFoundHandler } from './app/middleware.js';
export { withHeaders, headerOf } from './http/with-headers.js';
export type { Guard, GuardToken } from './app/guard.js';
export type { Interceptor, InterceptorToken } from './app/interceptor.js';
export type { OnModuleInit, OnModuleDestroy, OnApplicationShutdown } from './app/lifecycle.js';
export type { ResponseEvent, ResponseObserver } from './app/response-observer.js';
export { createAccessLog, type AccessLogOptions } from './app/access-log.js';

export { defineModule, type ModuleDefinition, type ModuleInput, type ModuleOptions } from './di/module.js';
export {
  defineProvider,
  defineFactory,
  type ProviderInput,
  type ClassProvider,
  type FactoryProvider,
  type ValueProvider,
  type ExistingProvider,
  type Constructor,
} from './di/provider.js';
export { createToken, type Token, type InjectionToken, type ClassToken, type TokenValue } from './di/token.js';
export { MissingProviderError, ProviderNotVisibleError, CircularDependencyError, ModuleGraphError, ProviderDefinitionError } from './di/di-errors.js';

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
  type HandlerContext,
  type HttpMethod,
  type Schema,
} from './routing/route.js';
export type { RouteInfo } from './routing/route-info.js';
export type { PathParams } from './routing/path.js';

export { createMetadataKey, readMetadata, readRouteMetadata, type MetadataKey, type MetadataEntry, type MetadataCombine } from './metadata.js';
export { createStateKey, type StateKey, type RequestContext } from './http/request-context.js';
export type { IncomingRequest } from './http/incoming-request.js';
export { jsonResponse, toResponse, type PlainResponse, type Outcome } from './http/plain-response.js';
export type { QueryRecord } from './http/query.js';
export { problemResponse, type ProblemDetails, type Logger } from './http/problem.js';
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
export { DEFINITION, hasDefinition, type DefinitionCarrier } from './definition-carrier.js';
export { TesseraError, isTesseraError } from './tessera-error.js';
export { RouteDefinitionError } from './routing/route-definition-error.js';
export { systemClock, createManualClock, checkedClock, ClockError, type Clock, type ManualClock } from './clock.js';
