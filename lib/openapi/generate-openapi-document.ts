import type { Schema } from '../index.js';
import { buildOperation, type OperationSchemas } from './build-operation.js';
import { documentTags } from './document-info.js';
import type { JsonSchema, OpenApiDocument, OpenApiPathItem } from './openapi-document.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';
import { resolveOptions, type OpenApiDocumentOptions, type RouteSource } from './openapi-options.js';
import { planOperations } from './operation-plan.js';
import { createProblemReporter, type ProblemReporter } from './problem-reporter.js';
import { problemSchema } from './problem-schema.js';
import { createSchemaComponents } from './schema-components.js';
import { convertSchema, convertSchemas } from './schema-conversion.js';
import type { ConvertedSchema, SchemaScope } from './converted-schema.js';
import { tracksUnrepresentable } from './zod-conversion.js';
import type { SchemaSide } from '../internal/schema.js';

/**
 * Builds the OpenAPI 3.1 document of an app from its public route table. A pure function: it
 * serves nothing, bundles no UI, and returns a fresh plain object each call (schema conversions
 * are cached per schema object, so repeated calls are cheap).
 *
 * Throws OpenApiGenerationError when a security requirement names a scheme missing from
 * `securitySchemes`, when two operations share an operationId, and with
 * `onUnrepresentable: 'throw'` for a schema JSON Schema cannot express.
 *
 * @example
 * const app = await createApp(createBlogModule());
 * const doc = generateOpenApiDocument(app, { title: 'Tessera blog', version: '1.0.0' });
 * doc.paths['/posts/{id}']?.get?.operationId; // 'PostsController_get'
 */
export function generateOpenApiDocument(source: RouteSource, options: OpenApiDocumentOptions): OpenApiDocument {
  const settings = resolveOptions(options);
  const planned = planOperations(source.routes, settings);
  if (settings.onUnrepresentable !== 'open' && !tracksUnrepresentable()) {
    throw new OpenApiGenerationError(
      `onUnrepresentable '${settings.onUnrepresentable}' needs a zod release whose toJSONSchema accepts a function for \`unrepresentable\` (zod 4.6 does); upgrade zod or use 'open'.`,
    );
  }
  const report = createProblemReporter(settings);
  const problem = problemSchema();
  const components = createSchemaComponents({ Problem: JSON.stringify(problem) }, report);

  // Convert every schema in one go per side (uncached ones in a single zod run), then walk the
  // operations registering named schemas, so that each one's input and output sides are both
  // known before any name is settled.
  const inputs: Schema[] = [];
  const outputs: Schema[] = [];
  for (const op of planned) {
    if (op.route.body) inputs.push(op.route.body);
    if (op.requestBody?.schema) inputs.push(op.requestBody.schema);
    if (op.route.query) inputs.push(op.route.query);
    if (op.route.paramsSchema) inputs.push(op.route.paramsSchema);
    if (op.route.response) outputs.push(op.route.response);
    for (const response of op.responses.values()) if (response.schema) outputs.push(response.schema);
  }
  convertSchemas(inputs, 'input');
  convertSchemas(outputs, 'output');

  const reportOnce = createOncePerDocument(report);
  const convert = (schema: Schema | undefined, side: SchemaSide, where: string): ConvertedSchema | undefined => {
    if (schema === undefined) return undefined;
    const converted = convertSchema(schema, side);
    reportOnce(converted, where);
    components.collect(converted, side, where);
    return converted;
  };
  const converted: OperationSchemas[] = planned.map((op) => {
    const declared = new Map<number, ConvertedSchema>();
    for (const [status, response] of op.responses) {
      const schema = convert(response.schema, 'output', `${op.where} response ${status}`);
      if (schema) declared.set(status, schema);
    }
    return {
      params: convert(op.route.paramsSchema, 'input', `${op.where} path parameters`),
      body: convert(op.requestBody === undefined ? op.route.body : op.requestBody.schema, 'input', `${op.where} request body`),
      query: convert(op.route.query, 'input', `${op.where} query`),
      response: convert(op.route.response, 'output', `${op.where} response`),
      declared,
      // The client's message is parsed by `message` (its input side); what the server sends is
      // described by `send` as a response is (its output side, the same component as the route's JSON).
      clientMessage: convert(op.route.webSocket?.message, 'input', `${op.where} client message`),
      serverMessage: convert(op.route.webSocket?.send, 'output', `${op.where} server message`),
    };
  });
  components.assignNames();

  const paths: Record<string, OpenApiPathItem> = {};
  planned.forEach((op, index) => {
    const item = (paths[op.path] ??= {});
    item[op.method] = buildOperation(op, converted[index] as OperationSchemas, components);
  });

  const schemas: Record<string, JsonSchema> = { ...components.schemas, Problem: problem };
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name] as JsonSchema]));
  const extra = settings.info;
  const info: OpenApiDocument['info'] = { title: settings.title, version: settings.version };
  if (settings.description !== undefined) info.description = settings.description;
  if (extra.contact !== undefined) info.contact = extra.contact;
  if (extra.license !== undefined) info.license = extra.license;
  const tags = documentTags(extra.tags, planned.flatMap((op) => op.tags));
  const document: OpenApiDocument = {
    openapi: '3.1.0',
    info,
    ...(extra.servers !== undefined ? { servers: extra.servers } : {}),
    ...(settings.security !== undefined ? { security: settings.security } : {}),
    ...(tags.length > 0 ? { tags } : {}),
    ...(extra.externalDocs !== undefined ? { externalDocs: extra.externalDocs } : {}),
    paths,
    components: {
      schemas: { ...sorted, Problem: problem },
      ...(settings.securitySchemes !== undefined ? { securitySchemes: settings.securitySchemes } : {}),
    },
  };
  return document;
}

/**
 * Reports a conversion's problems once per document, naming the first route that uses it; a
 * problem inside a shared named schema is reported once, not once per route using it.
 */
function createOncePerDocument(report: ProblemReporter): (converted: ConvertedSchema, where: string) => void {
  const roots = new Set<ConvertedSchema>();
  const defs = new Map<SchemaScope, Set<string>>();
  return (converted, where) => {
    if (!roots.has(converted)) {
      roots.add(converted);
      for (const problem of converted.problems) report(where, problem);
    }
    let done = defs.get(converted.scope);
    if (!done) defs.set(converted.scope, (done = new Set()));
    for (const name of converted.reaches) {
      if (done.has(name)) continue;
      done.add(name);
      for (const problem of converted.scope.defProblems[name] ?? []) report(where, `in schema ${name}: ${problem}`);
    }
  };
}
