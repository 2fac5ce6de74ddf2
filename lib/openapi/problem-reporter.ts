import { OpenApiGenerationError } from './openapi-generation-error.js';
import type { ResolvedOptions } from './openapi-options.js';

/**
 * Receives what the document can only describe loosely (`where` names the route and the schema's
 * role) and acts on it per `onUnrepresentable`: nothing, a warning, or an OpenApiGenerationError.
 */
export type ProblemReporter = (where: string, message: string) => void;

/**
 * The reporter for one document.
 *
 * @example
 * const report = createProblemReporter(resolveOptions({ title: 'T', version: '1', onUnrepresentable: 'warn' }));
 * report('PostsController.create (POST /posts) request body', 'n: BigInt cannot be represented in JSON Schema');
 */
export function createProblemReporter(options: Pick<ResolvedOptions, 'onUnrepresentable' | 'warn'>): ProblemReporter {
  switch (options.onUnrepresentable) {
    case 'open':
      return () => {};
    case 'warn':
      return (where, message) => options.warn(`tessera-http/openapi: ${where}: ${message} (documented as an open schema).`);
    case 'throw':
      return (where, message) => {
        throw new OpenApiGenerationError(
          `Cannot describe ${where}: ${message}. Change the schema, or use onUnrepresentable 'open' or 'warn' to document it as an open schema.`,
        );
      };
  }
}
