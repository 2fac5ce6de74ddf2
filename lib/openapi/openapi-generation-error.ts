import { TesseraError } from '../index.js';
/**
 * Thrown by `generateOpenApiDocument` and `serveOpenApi` for a configuration the document cannot
 * honestly describe: an unknown security scheme, a duplicate operationId, invalid options, or
 * (with `onUnrepresentable: 'throw'`) a schema JSON Schema cannot express. The message names the
 * route (`Controller.route (METHOD /path)`) and the fix.
 *
 * @example
 * try { generateOpenApiDocument(app, options); }
 * catch (error) { if (error instanceof OpenApiGenerationError) console.error(error.message); }
 */
export class OpenApiGenerationError extends TesseraError {
  constructor(message: string) {
    super('OPENAPI_GENERATION', message);
  }
}
