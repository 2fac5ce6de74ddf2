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
  /** Absent for bytes (an upload or a download of any content). */
  schema?: JsonSchema;
}

/**
 * A request body: JSON from the route's `body` schema, or what `ApiRequestBody` declares.
 *
 * @example
 * const body: OpenApiRequestBody = { required: true, content: { 'application/json': { schema: {} } } };
 */
export interface OpenApiRequestBody {
  description?: string;
  required: boolean;
  content: { [mediaType: string]: OpenApiMediaType };
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
  /**
   * On a WebSocket route (OpenAPI has no word for the messages after the 101): the JSON schemas
   * of what the client sends and what the server sends, where the route declares them.
   */
  'x-websocket'?: { clientMessage?: JsonSchema; serverMessage?: JsonSchema };
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
 * A server the API is reachable at; `url` may be relative to where the document is served.
 *
 * @example
 * const server: OpenApiServer = { url: 'https://api.example.com', description: 'Production' };
 */
export interface OpenApiServer {
  url: string;
  description?: string;
  variables?: { [name: string]: { default: string; enum?: string[]; description?: string } };
}

/**
 * A link to documentation outside the document.
 *
 * @example
 * const docs: OpenApiExternalDocs = { url: 'https://example.com/guide', description: 'Guide' };
 */
export interface OpenApiExternalDocs {
  url: string;
  description?: string;
}

/**
 * A tag with its description, listed at the document's top level.
 *
 * @example
 * const tag: OpenApiTag = { name: 'Posts', description: 'Blog posts' };
 */
export interface OpenApiTag {
  name: string;
  description?: string;
  externalDocs?: OpenApiExternalDocs;
}

/**
 * The API's licence: a `name` with either an SPDX `identifier` or a `url`.
 *
 * @example
 * const license: OpenApiLicense = { name: 'MIT', identifier: 'MIT' };
 */
export interface OpenApiLicense {
  name: string;
  identifier?: string;
  url?: string;
}

/**
 * Who to contact about the API.
 *
 * @example
 * const contact: OpenApiContact = { name: 'API team', email: 'api@example.com' };
 */
export interface OpenApiContact {
  name?: string;
  url?: string;
  email?: string;
}

/**
 * The whole document `generateOpenApiDocument` returns.
 *
 * @example
 * const doc: OpenApiDocument = generateOpenApiDocument(app, { title: 'Blog', version: '1.0.0' });
 * doc.components.schemas.Problem; // always present
 */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string; contact?: OpenApiContact; license?: OpenApiLicense };
  /** Present only when the `servers` option is given. */
  servers?: OpenApiServer[];
  /** Present only when the `security` option is given. */
  security?: SecurityRequirement[];
  /** The configured tags, then any other tag an operation uses. */
  tags?: OpenApiTag[];
  /** Present only when the `externalDocs` option is given. */
  externalDocs?: OpenApiExternalDocs;
  paths: { [path: string]: OpenApiPathItem };
  components: {
    schemas: { Problem: JsonSchema; [name: string]: JsonSchema };
    /** Present only when the `securitySchemes` option is given. */
    securitySchemes?: { [name: string]: SecuritySchemeObject };
  };
}
