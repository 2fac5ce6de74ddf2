import type { Schema } from '../index.js';
import { isZodSchema } from '../index.js';
import { statusText } from '../internal/request-path.js';
import type { JsonSchema, OpenApiMediaType, OpenApiOperation, OpenApiParameter, OpenApiResponse } from './openapi-document.js';
import type { PlannedOperation } from './operation-plan.js';
import { PROBLEM_REF } from './problem-schema.js';
import type { SchemaComponents } from './schema-components.js';
import type { ConvertedSchema } from './converted-schema.js';

/** The converted schemas of one operation (first pass), by role. */
export interface OperationSchemas {
  /** The `params` schema, input side: what each path parameter must look like as sent. */
  readonly params: ConvertedSchema | undefined;
  readonly body: ConvertedSchema | undefined;
  readonly query: ConvertedSchema | undefined;
  readonly response: ConvertedSchema | undefined;
  readonly declared: ReadonlyMap<number, ConvertedSchema>;
  readonly clientMessage: ConvertedSchema | undefined;
  readonly serverMessage: ConvertedSchema | undefined;
}

/** Statuses whose responses never carry a body. */
const NO_CONTENT = new Set([204, 205, 304]);

const problemContent = () => ({ 'application/problem+json': { schema: { $ref: PROBLEM_REF } } });

/**
 * The OpenAPI operation of a planned route, its schemas already converted (second pass).
 *
 * @example
 * paths[op.path][op.method] = buildOperation(op, schemas, components);
 */
export function buildOperation(op: PlannedOperation, schemas: OperationSchemas, components: SchemaComponents): OpenApiOperation {
  const { route, operationId } = op;
  const parameters: OpenApiParameter[] = pathParameters(route.params, schemas.params, components, `${operationId}_params`);
  if (schemas.query) parameters.push(...queryParameters(schemas.query, components, `${operationId}_query`));

  // Built field by field in the order readers expect, omitting what is absent.
  const operation: Partial<OpenApiOperation> & Pick<OpenApiOperation, 'operationId'> = { operationId };
  if (op.summary !== undefined) operation.summary = op.summary;
  if (op.description !== undefined) operation.description = op.description;
  operation.tags = [...op.tags];
  if (op.deprecated !== undefined) operation.deprecated = op.deprecated;
  if (parameters.length > 0) operation.parameters = parameters;
  const declaredBody = op.requestBody;
  if (declaredBody !== undefined) {
    // A body the handler reads itself (a form, bytes): its media type, and its shape if given.
    operation.requestBody = {
      ...(declaredBody.description === undefined ? {} : { description: declaredBody.description }),
      required: declaredBody.required ?? true,
      content: { [declaredBody.mediaType]: schemas.body ? { schema: components.placeRequestBody(schemas.body, `${operationId}_body`) } : {} },
    };
  } else if (schemas.body && route.body) {
    operation.requestBody = {
      required: !acceptsUndefined(route.body),
      content: { 'application/json': { schema: components.placeRequestBody(schemas.body, `${operationId}_body`) } },
    };
  }
  operation.responses = buildResponses(op, schemas, components);
  if (op.security !== undefined) operation.security = op.security;
  if (route.webSocket !== undefined) {
    const messages: NonNullable<OpenApiOperation['x-websocket']> = {};
    if (schemas.clientMessage) messages.clientMessage = components.place(schemas.clientMessage, `${operationId}_clientMessage`);
    if (schemas.serverMessage) messages.serverMessage = components.place(schemas.serverMessage, `${operationId}_serverMessage`);
    operation['x-websocket'] = messages;
  }
  return operation as OpenApiOperation;
}

/**
 * One parameter per path parameter, in path order: its part of the `params` schema (input side,
 * so `z.coerce.number().int()` is `type: integer`) when the schema names it, else a string.
 */
function pathParameters(names: readonly string[], params: ConvertedSchema | undefined, components: SchemaComponents, hint: string): OpenApiParameter[] {
  const properties = params === undefined ? undefined : (components.dereferenceRoot(params).properties as Record<string, unknown> | undefined);
  return names
    .filter((name) => name !== '*')
    .map((name) => {
      const part = properties?.[name];
      if (params === undefined || part === undefined) return { name, in: 'path', required: true, schema: { type: 'string' } };
      const schema = components.placePart(params, part, `${hint}_${name}`);
      const parameter: OpenApiParameter = { name, in: 'path', required: true, schema };
      if (typeof schema.description === 'string') parameter.description = schema.description;
      return parameter;
    });
}

/**
 * One parameter per property of an object query schema (input side), `required` from its
 * `required` list. Anything else (a record, a union) cannot be split into named parameters, so it
 * is one free-form `query` parameter with `style: form, explode: true`, which is how OpenAPI says
 * "these keys and values are the query string".
 */
function queryParameters(query: ConvertedSchema, components: SchemaComponents, hint: string): OpenApiParameter[] {
  const object = components.dereferenceRoot(query);
  const properties = object.properties;
  const splittable =
    object.type === 'object' &&
    typeof properties === 'object' && properties !== null &&
    object.anyOf === undefined && object.oneOf === undefined && object.allOf === undefined;
  if (!splittable) {
    return [{ name: 'query', in: 'query', required: false, schema: components.place(query, hint), style: 'form', explode: true }];
  }
  const required = new Set(Array.isArray(object.required) ? (object.required as unknown[]) : []);
  return Object.entries(properties as Record<string, unknown>).map(([name, part]) => {
    const schema = components.placePart(query, part, `${hint}_${name}`);
    const parameter: OpenApiParameter = { name, in: 'query', required: required.has(name), schema };
    if (typeof schema.description === 'string') parameter.description = schema.description;
    return parameter;
  });
}

/**
 * The success response under the route's status (output side of `response`), declared
 * ApiResponses over it, 400 for routes that validate input, 401/403 for the refusals the plan
 * found, and `default` for problem+json.
 */
function buildResponses(op: PlannedOperation, schemas: OperationSchemas, components: SchemaComponents): Record<string, OpenApiResponse> {
  const { route, operationId } = op;
  const byStatus = new Map<number, OpenApiResponse>();
  const declaresSuccess = [...op.responses.keys()].some((status) => status >= 200 && status < 300);

  if (route.webSocket !== undefined) {
    // A WebSocket route answers its upgrade with 101; its messages are under `x-websocket`.
    byStatus.set(101, { description: 'Switching Protocols: the connection is now a WebSocket; `x-websocket` gives its messages.' });
    byStatus.set(426, { description: 'Upgrade Required: the request was not a WebSocket upgrade (version 13).', content: problemContent() });
  } else if (schemas.response && !NO_CONTENT.has(route.status)) {
    byStatus.set(route.status, {
      description: statusText(route.status),
      content: { 'application/json': { schema: components.place(schemas.response, `${operationId}_response`) } },
    });
  } else if (NO_CONTENT.has(route.status)) {
    byStatus.set(route.status, { description: statusText(route.status) });
  } else if (!declaresSuccess) {
    // No response schema: the handler may return any JSON value (sent with the route's status)
    // or undefined (sent as 204), and nothing static tells which. Document both, honestly.
    byStatus.set(route.status, { description: statusText(route.status), content: { 'application/json': { schema: {} } } });
    byStatus.set(204, { description: statusText(204) });
  }

  if (route.body || route.query || route.paramsSchema) {
    byStatus.set(400, { description: 'Bad Request: the request failed validation; `issues` lists why.', content: problemContent() });
  }

  if (op.refusals.unauthorized) {
    byStatus.set(401, { description: 'Unauthorized: the credential is missing, malformed, expired or invalid.', content: problemContent() });
  }
  if (op.refusals.forbidden) {
    byStatus.set(403, { description: 'Forbidden: the credential lacks a role or scope this operation needs.', content: problemContent() });
  }

  for (const [status, declared] of op.responses) {
    const response: OpenApiResponse = { description: declared.description ?? statusText(status) };
    const converted = schemas.declared.get(status);
    if (NO_CONTENT.has(status)) {
      // a body is impossible whatever was declared
    } else if (status >= 400) {
      response.content = converted
        ? { 'application/problem+json': { schema: components.place(converted, `${operationId}_response${status}`) } }
        : problemContent();
    } else if (declared.mediaType !== undefined) {
      response.content = { [declared.mediaType]: mediaContent(declared.mediaType, converted && components.place(converted, `${operationId}_response${status}`)) };
    } else if (converted) {
      response.content = { 'application/json': { schema: components.place(converted, `${operationId}_response${status}`) } };
    }
    byStatus.set(status, response);
  }

  const responses = statusKeyed<OpenApiResponse>();
  for (const status of [...byStatus.keys()].sort((a, b) => a - b)) responses[String(status)] = byStatus.get(status) as OpenApiResponse;
  responses.default = { description: 'Error: an RFC 9457 problem details object.', content: problemContent() };
  return responses;
}

/**
 * A non-JSON success answer's media type object: the declared schema when there is one; an event
 * stream is text; anything else is bytes, which OpenAPI 3.1 writes as a media type with no schema.
 */
function mediaContent(mediaType: string, schema: JsonSchema | undefined): OpenApiMediaType {
  if (schema !== undefined) return { schema };
  if (mediaType === 'text/event-stream') return { schema: { type: 'string', description: 'A stream of server-sent events (the text/event-stream format).' } };
  return {};
}

/** An index far beyond any status code: setting it turns an object's elements into a dictionary. */
const FAR_INDEX = 1 << 24;

/**
 * An empty object for status-code keys. V8 keeps integer-like keys (`'200'`, `'400'`) as array
 * elements, and a plain `{}` given key `'400'` grows a backing store of some 600 slots: about
 * 6 KB per `responses` object, most of a large document's memory and allocation. Setting one far
 * index (and deleting it) first makes the elements a dictionary, a few hundred bytes. The keys,
 * their order and the JSON are the same.
 */
function statusKeyed<T>(): Record<string, T> {
  const record: Record<string, T> = {};
  record[FAR_INDEX] = undefined as T;
  delete record[FAR_INDEX];
  return record;
}

const bodyOptional = new WeakMap<Schema, boolean>();

/**
 * Whether a body schema accepts a missing body (the framework passes `undefined` for an empty
 * one), decided by asking the schema itself. A schema that cannot answer synchronously (async
 * refinements) counts as requiring a body.
 */
function acceptsUndefined(schema: Schema): boolean {
  // A zod object rejects `undefined` before anything else runs (its checks can only add issues):
  // no need to parse, which costs a failed parse's error object per body schema.
  const zod = isZodSchema(schema);
  if (zod && schema._zod.def.type === 'object') return false;
  let optional = bodyOptional.get(schema);
  if (optional === undefined) {
    try {
      optional = zod ? schema.safeParse(undefined).success : standardAcceptsUndefined(schema);
    } catch {
      optional = false;
    }
    bodyOptional.set(schema, optional);
  }
  return optional;
}

/** Another library's schema, asked through `~standard.validate`; an asynchronous answer counts as no. */
function standardAcceptsUndefined(schema: Schema): boolean {
  const result = schema['~standard'].validate(undefined);
  if (result instanceof Promise) {
    result.catch(() => undefined);
    return false;
  }
  return result.issues === undefined;
}
