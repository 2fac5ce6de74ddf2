/**
 * The shapes of the generated OpenAPI 3.1 document. They are plain JSON data: the generator
 * returns a fresh object the caller owns, so nothing here is readonly.
 */

/**
 * A JSON Schema (draft 2020-12) object, as OpenAPI 3.1 embeds it.
 *
 * @example
 * const schema: JsonSchema = { type: 'string', format: 'date-time' };
 */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * A security requirement: scheme name to the scopes it needs (empty for non-OAuth schemes).
 * Several schemes in one requirement must all pass; several requirements are alternatives.
 *
 * @example
 * const requirement: SecurityRequirement = { bearer: [] };
 */
export type SecurityRequirement = { [scheme: string]: string[] };

/**
 * An OpenAPI security scheme object, passed through as given. Only `type` is checked.
 *
 * @example
 * const bearer: SecuritySchemeObject = { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' };
 */
export interface SecuritySchemeObject {
  readonly type: string;
  readonly [field: string]: unknown;
}

/**
 * A path or query parameter.
 *
 * @example
 * const id: OpenApiParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
 */
export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
  /** Only on the single free-form parameter used for a query schema that is not a plain object. */
  style?: 'form';
  explode?: boolean;
}

/**
 * A media type entry of a request body or response.
 *
 * @example
 * const media: OpenApiMediaType = { schema: { $ref: '#/components/schemas/Post' } };
 */
export interface OpenApiMediaType {
  schema: JsonSchema;
}

/**
 * A JSON request body.
 *
 * @example
 * const body: OpenApiRequestBody = { required: true, content: { 'application/json': { schema: {} } } };
 */
export interface OpenApiRequestBody {
  required: boolean;
  content: { 'application/json': OpenApiMediaType };
}

/**
 * One response of an operation.
 *
 * @example
 * const gone: OpenApiResponse = { description: 'No Content' };
 */
export interface OpenApiResponse {
  description: string;
  content?: { [mediaType: string]: OpenApiMediaType };
}

/**
 * One operation (a method on a path).
 *
 * @example
 * const op: OpenApiOperation = { operationId: 'PostsController_list', responses: { '200': { description: 'OK' } } };
 */
export interface OpenApiOperation {
  operationId: string;
  summary?: string;
  description?: string;
  tags?: string[];
  deprecated?: boolean;
  parameters?: OpenApiParameter[];
  requestBody?: OpenApiRequestBody;
  /** Status code (as a string) to response, plus `default` for problem+json errors. */
  responses: { [status: string]: OpenApiResponse };
  /** Present only when ApiSecurity applies; `[]` means public. */
  security?: SecurityRequirement[];
}

/** The lowercase HTTP methods a path item can hold. */
export type OpenApiMethod = 'get' | 'put' | 'post' | 'patch' | 'delete';

/**
 * The operations of one path.
 *
 * @example
 * const item: OpenApiPathItem = { get: listOperation, post: createOperation };
 */
export type OpenApiPathItem = { [M in OpenApiMethod]?: OpenApiOperation };

/**
 * The whole document `generateOpenApiDocument` returns.
 *
 * @example
 * const doc: OpenApiDocument = generateOpenApiDocument(app, { title: 'Blog', version: '1.0.0' });
 * doc.components.schemas.Problem; // always present
 */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  /** Present only when the `security` option is given. */
  security?: SecurityRequirement[];
  paths: { [path: string]: OpenApiPathItem };
  components: {
    schemas: { Problem: JsonSchema; [name: string]: JsonSchema };
    /** Present only when the `securitySchemes` option is given. */
    securitySchemes?: { [name: string]: SecuritySchemeObject };
  };
}
