// `tessera-http/openapi`: the app's route table -> an OpenAPI 3.1 document, plus a route serving it.
// Explicit named exports only; the planning and conversion machinery stays internal.
export { generateOpenApiDocument } from './generate-openapi-document.js';
export { serveOpenApi } from './serve-openapi.js';
export { loadSchemaConverters, type SchemaConverterModules } from './standard-json-schema.js';
export type { OpenApiDocumentOptions, RouteSource, UnrepresentableMode } from './openapi-options.js';
export { OpenApiGenerationError } from './openapi-generation-error.js';
export { ApiOperation, type ApiOperationOptions } from './api-operation.js';
export { ApiTags } from './api-tags.js';
export { ApiResponse, type ApiResponseOptions } from './api-response.js';
export { ApiRequestBody, type ApiRequestBodyOptions } from './api-request-body.js';
export { ApiSecurity, type ApiSecurityValue } from './api-security.js';
export type { SecurityRequirementInput } from './security-requirement.js';
export type {
  JsonSchema,
  OpenApiDocument,
  OpenApiMediaType,
  OpenApiMethod,
  OpenApiOperation,
  OpenApiParameter,
  OpenApiPathItem,
  OpenApiRequestBody,
  OpenApiResponse,
  SecurityRequirement,
  SecuritySchemeObject,
} from './openapi-document.js';
