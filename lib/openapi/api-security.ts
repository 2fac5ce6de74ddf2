import { createMetadataKey, type MetadataEntry } from '../index.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';
import { assertRequirementInputs, type SecurityRequirementInput } from './security-requirement.js';

/** The value ApiSecurity stores: the requirements, or `false` for public. */
export type ApiSecurityValue = readonly SecurityRequirementInput[] | false;

/** Metadata key of `ApiSecurity`. */
export const API_SECURITY = createMetadataKey<ApiSecurityValue>('openapi:security');

/**
 * Marks the security schemes an operation needs, in the generated document only (enforcement is
 * the guards' job). Each argument is one alternative: a scheme name or a map of scheme name to
 * scopes. `ApiSecurity(false)` marks it public (`security: []`). A route's ApiSecurity overrides
 * its controller's, which overrides the global `security` option.
 *
 * @example
 * defineController({ name: 'Admin', metadata: [ApiSecurity('bearer', 'apiKey')], routes: () => ({}) });
 * class Health { @ApiSecurity(false) @Get() check() {} }
 */
export function ApiSecurity(isPublic: false): MetadataEntry<ApiSecurityValue>;
export function ApiSecurity(...requirements: [SecurityRequirementInput, ...SecurityRequirementInput[]]): MetadataEntry<ApiSecurityValue>;
export function ApiSecurity(...args: readonly unknown[]): MetadataEntry<ApiSecurityValue> {
  if (args.length === 1 && args[0] === false) return API_SECURITY.with(false);
  if (args.length === 0) throw new OpenApiGenerationError('ApiSecurity: give one or more requirements, or false for a public operation.');
  if (args.includes(false)) throw new OpenApiGenerationError('ApiSecurity: false must be the only argument.');
  assertRequirementInputs(args, 'ApiSecurity');
  return API_SECURITY.with(Object.freeze(args.map((a) => (typeof a === 'string' ? a : Object.freeze({ ...a })))));
}
