import type { StandardSchemaV1 } from './standard-schema.js';

/**
 * One validation issue as a 400 problem's `issues` lists it: a code, where (keys and indexes,
 * as zod writes paths), and why. zod's issues are sent as zod made them (they have these three
 * and more); another library's are normalised to these three.
 *
 * @example
 * const issue: SchemaIssue = { code: 'min_length', path: ['tags', 0], message: 'Invalid length' };
 */
export interface SchemaIssue {
  readonly code: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** What the libraries put beside the standard `message` and `path`: ArkType a `code`, valibot a `type`. */
interface VendorIssue extends StandardSchemaV1.Issue {
  readonly code?: unknown;
  readonly type?: unknown;
}

/**
 * A Standard Schema issue in the form zod's take: `{ key }` path segments become their key, and
 * the code is the library's own (ArkType's `code`, valibot's `type`) or `'invalid'`.
 *
 * @example
 * toSchemaIssue({ message: 'Invalid type', path: [{ key: 'title' }] }); // { code: 'invalid', path: ['title'], message: 'Invalid type' }
 */
export function toSchemaIssue(issue: StandardSchemaV1.Issue): SchemaIssue {
  const vendor = issue as VendorIssue;
  const code = typeof vendor.code === 'string' ? vendor.code : typeof vendor.type === 'string' ? vendor.type : 'invalid';
  const path = issue.path === undefined ? [] : issue.path.map((segment) => (typeof segment === 'object' && segment !== null ? segment.key : segment));
  return { code, path, message: issue.message };
}
