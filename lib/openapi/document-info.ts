import type { OpenApiContact, OpenApiExternalDocs, OpenApiLicense, OpenApiServer, OpenApiTag } from './openapi-document.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';

/**
 * The document-level descriptive options (`servers`, `tags`, `license`, `contact`,
 * `externalDocs`), checked and copied. They usually come from configuration files, so each is
 * checked at the shape OpenAPI requires and named in the error when wrong.
 *
 * @example
 * resolveDocumentInfo({ license: { name: 'MIT', identifier: 'MIT' } }).license; // { name: 'MIT', identifier: 'MIT' }
 */
export interface DocumentInfoOptions {
  readonly servers?: readonly OpenApiServer[];
  readonly tags?: readonly OpenApiTag[];
  readonly license?: OpenApiLicense;
  readonly contact?: OpenApiContact;
  readonly externalDocs?: OpenApiExternalDocs;
}

/** The same options after checking: fresh copies the document may own. */
export interface ResolvedDocumentInfo {
  readonly servers: OpenApiServer[] | undefined;
  readonly tags: OpenApiTag[] | undefined;
  readonly license: OpenApiLicense | undefined;
  readonly contact: OpenApiContact | undefined;
  readonly externalDocs: OpenApiExternalDocs | undefined;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function requireStrings(value: unknown, what: string, required: readonly string[], optional: readonly string[]): void {
  if (!isRecord(value)) throw new OpenApiGenerationError(`OpenAPI option ${what} must be an object.`);
  for (const field of required) {
    if (typeof value[field] !== 'string' || value[field] === '') throw new OpenApiGenerationError(`OpenAPI option ${what} needs a non-empty string \`${field}\`.`);
  }
  for (const field of optional) {
    if (value[field] !== undefined && typeof value[field] !== 'string') throw new OpenApiGenerationError(`OpenAPI option ${what}: \`${field}\` must be a string when given.`);
  }
}

/** A JSON copy: the document owns its objects and never shares the caller's. */
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

/**
 * Checks and copies the descriptive options. Throws OpenApiGenerationError naming the option.
 *
 * @example
 * resolveDocumentInfo({ servers: [{ url: 'https://api.example.com' }] }).servers?.[0]?.url;
 */
export function resolveDocumentInfo(options: DocumentInfoOptions): ResolvedDocumentInfo {
  let servers: OpenApiServer[] | undefined;
  if (options.servers !== undefined) {
    if (!Array.isArray(options.servers) || options.servers.length === 0) throw new OpenApiGenerationError('OpenAPI option `servers` must be a non-empty array when given.');
    options.servers.forEach((server, i) => requireStrings(server, `\`servers[${i}]\``, ['url'], ['description']));
    servers = copy(options.servers) as OpenApiServer[];
  }
  let tags: OpenApiTag[] | undefined;
  if (options.tags !== undefined) {
    if (!Array.isArray(options.tags)) throw new OpenApiGenerationError('OpenAPI option `tags` must be an array.');
    const seen = new Set<string>();
    options.tags.forEach((tag, i) => {
      requireStrings(tag, `\`tags[${i}]\``, ['name'], ['description']);
      if (tag.externalDocs !== undefined) requireStrings(tag.externalDocs, `\`tags[${i}].externalDocs\``, ['url'], ['description']);
      if (seen.has(tag.name)) throw new OpenApiGenerationError(`OpenAPI option \`tags\` lists '${tag.name}' twice.`);
      seen.add(tag.name);
    });
    tags = copy(options.tags) as OpenApiTag[];
  }
  if (options.license !== undefined) {
    requireStrings(options.license, '`license`', ['name'], ['identifier', 'url']);
    // OpenAPI 3.1: `identifier` (an SPDX expression) and `url` are mutually exclusive.
    if (options.license.identifier !== undefined && options.license.url !== undefined) {
      throw new OpenApiGenerationError('OpenAPI option `license` takes `identifier` or `url`, not both.');
    }
  }
  if (options.contact !== undefined) requireStrings(options.contact, '`contact`', [], ['name', 'url', 'email']);
  if (options.externalDocs !== undefined) requireStrings(options.externalDocs, '`externalDocs`', ['url'], ['description']);
  return {
    servers,
    tags,
    license: options.license === undefined ? undefined : copy(options.license),
    contact: options.contact === undefined ? undefined : copy(options.contact),
    externalDocs: options.externalDocs === undefined ? undefined : copy(options.externalDocs),
  };
}

/**
 * The document's top-level tag list: the configured tags in their order, then every other tag
 * an operation uses, sorted, so that each operation's tags are declared (linters ask for it).
 *
 * @example
 * documentTags([{ name: 'Posts', description: 'Blog posts' }], ['Posts', 'Health']);
 * // [{ name: 'Posts', description: 'Blog posts' }, { name: 'Health' }]
 */
export function documentTags(configured: readonly OpenApiTag[] | undefined, used: Iterable<string>): OpenApiTag[] {
  const tags: OpenApiTag[] = configured ? configured.map((tag) => ({ ...tag })) : [];
  const listed = new Set(tags.map((tag) => tag.name));
  const extra = [...new Set(used)].filter((name) => !listed.has(name)).sort();
  for (const name of extra) tags.push({ name });
  return tags;
}
