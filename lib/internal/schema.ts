// Internal entry (not in the package's `exports`; names move between releases): schemas as the
// core reads them, for the OpenAPI generator and the clients: zod 4's internals typed once, the
// one parser per schema, issues, the response writer.
export type { SchemaSide, ZodNode, ZodDef, ZodBag, ZodInternals } from '../schema/zod-internals.js';
export type { ZodSchema } from '../schema/zod-schema.js';
export { compileSchemaParser, parseResultOf, type SchemaParser, type SchemaParseResult } from '../schema/schema-parser.js';
export { toSchemaIssue, type SchemaIssue } from '../schema/schema-issues.js';
export { compileResponseWriter, type ResponseWriter } from '../schema/response-writer.js';
