import type { JsonSchema } from './openapi-document.js';

/** Where every error response points. */
export const PROBLEM_REF = '#/components/schemas/Problem';

/**
 * `components.schemas.Problem`: the RFC 9457 problem details body Tessera sends for every error
 * (`application/problem+json`). Built fresh per document so callers may edit their copy.
 *
 * @example
 * doc.components.schemas.Problem = problemSchema();
 */
export function problemSchema(): JsonSchema {
  return {
    type: 'object',
    description:
      'An RFC 9457 problem details object, sent with media type application/problem+json for every error. ' +
      'Further members may be present (extensions).',
    properties: {
      type: { type: 'string', description: "A URI reference identifying the problem type; 'about:blank' when the status says it all." },
      title: { type: 'string', description: "The status code's reason phrase, e.g. 'Not Found'." },
      status: { type: 'integer', minimum: 100, maximum: 599, description: 'The HTTP status code.' },
      detail: { type: 'string', description: 'A human-readable explanation of this occurrence.' },
      instance: { type: 'string', description: 'A URI reference identifying this occurrence.' },
      issues: {
        type: 'array',
        description: 'Validation failures (status 400): one entry per schema issue.',
        items: {
          type: 'object',
          properties: {
            code: { type: 'string', description: "The issue code, e.g. 'too_small'." },
            path: {
              type: 'array',
              description: 'Where in the body or query the issue is.',
              items: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
            },
            message: { type: 'string' },
          },
          required: ['code', 'path', 'message'],
        },
      },
    },
    required: ['type', 'title', 'status'],
  };
}
