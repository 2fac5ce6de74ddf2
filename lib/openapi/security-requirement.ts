import type { SecurityRequirement } from './openapi-document.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';

/**
 * How a requirement is written in options and in `ApiSecurity`: a scheme name (no scopes), or a
 * map of scheme name to scopes (several schemes in one map must all pass).
 *
 * @example
 * const either: SecurityRequirementInput[] = ['bearer', { apiKey: [] }];
 * const both: SecurityRequirementInput = { bearer: [], apiKey: ['posts:write'] };
 */
export type SecurityRequirementInput = string | Readonly<Record<string, readonly string[]>>;

/**
 * Turns written requirements into OpenAPI requirement objects (fresh arrays, so the document
 * never shares state with the caller's options).
 *
 * @example
 * toSecurityRequirements(['bearer', { oauth: ['read'] }]); // [{ bearer: [] }, { oauth: ['read'] }]
 */
export function toSecurityRequirements(inputs: readonly SecurityRequirementInput[]): SecurityRequirement[] {
  return inputs.map((input) => {
    if (typeof input === 'string') return { [input]: [] };
    const requirement: SecurityRequirement = {};
    for (const [scheme, scopes] of Object.entries(input)) requirement[scheme] = [...scopes];
    return requirement;
  });
}

/**
 * Checks a written requirement list's shape; thrown early so that a typo fails where it is made.
 *
 * @example
 * assertRequirementInputs(['bearer'], 'ApiSecurity'); // ok
 */
export function assertRequirementInputs(inputs: readonly unknown[], where: string): asserts inputs is readonly SecurityRequirementInput[] {
  inputs.forEach((input, index) => {
    if (typeof input === 'string') {
      if (input === '') throw new OpenApiGenerationError(`${where}: requirement #${index} is an empty scheme name.`);
      return;
    }
    if (typeof input !== 'object' || input === null || Array.isArray(input)) {
      throw new OpenApiGenerationError(`${where}: requirement #${index} must be a scheme name or a map of scheme name to scopes.`);
    }
    for (const [scheme, scopes] of Object.entries(input)) {
      if (!Array.isArray(scopes) || scopes.some((scope) => typeof scope !== 'string')) {
        throw new OpenApiGenerationError(`${where}: scopes of scheme '${scheme}' must be an array of strings.`);
      }
    }
  });
}

/**
 * Throws when a requirement names a scheme that `securitySchemes` does not declare.
 *
 * @example
 * assertKnownSchemes([{ bearer: [] }], new Set(['bearer']), 'the security option'); // ok
 */
export function assertKnownSchemes(requirements: readonly SecurityRequirement[], known: ReadonlySet<string>, where: string): void {
  for (const requirement of requirements) {
    for (const scheme of Object.keys(requirement)) {
      if (!known.has(scheme)) {
        const declared = known.size === 0 ? 'no securitySchemes are declared' : `declared: ${[...known].join(', ')}`;
        throw new OpenApiGenerationError(
          `${where} names security scheme '${scheme}', which is not in securitySchemes (${declared}). Add it to the securitySchemes option.`,
        );
      }
    }
  }
}
