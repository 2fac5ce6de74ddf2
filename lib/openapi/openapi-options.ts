import type { RouteInfo } from '../index.js';
import type { SecurityRequirement, SecuritySchemeObject } from './openapi-document.js';
import { resolveDocumentInfo, type DocumentInfoOptions, type ResolvedDocumentInfo } from './document-info.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';
import { assertKnownSchemes, assertRequirementInputs, toSecurityRequirements, type SecurityRequirementInput } from './security-requirement.js';

/**
 * What to do with a schema part JSON Schema cannot express (a bigint, a transform's output, a
 * custom check) or a schema that fails conversion entirely:
 * `open` documents it as an open schema (`{}`, or one whose description says why);
 * `warn` does the same and reports it; `throw` throws an OpenApiGenerationError naming the route.
 */
export type UnrepresentableMode = 'open' | 'warn' | 'throw';

/**
 * Anything with a route table: an app from `createApp`, or a hand-made `{ routes }` in tests.
 *
 * @example
 * const source: RouteSource = await createApp(AppModule);
 */
export interface RouteSource {
  readonly routes: readonly RouteInfo[];
}

/**
 * Options of `generateOpenApiDocument` and `serveOpenApi`.
 *
 * @example
 * const options: OpenApiDocumentOptions = {
 *   title: 'Tessera blog',
 *   version: '1.0.0',
 *   securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
 *   security: ['bearer'],
 *   servers: [{ url: 'https://api.example.com' }],
 *   tags: [{ name: 'Posts', description: 'Blog posts' }],
 *   license: { name: 'MIT', identifier: 'MIT' },
 * };
 */
export interface OpenApiDocumentOptions extends DocumentInfoOptions {
  readonly title: string;
  /** Becomes `info.version`: the version of your API, not of OpenAPI. */
  readonly version: string;
  readonly description?: string;
  /** Emitted under `components.securitySchemes`, each passed through as given. */
  readonly securitySchemes?: Readonly<Record<string, SecuritySchemeObject>>;
  /** Applies to every operation unless `ApiSecurity` on its controller or route overrides it. */
  readonly security?: readonly SecurityRequirementInput[];
  /** Default `open`. */
  readonly onUnrepresentable?: UnrepresentableMode;
  /** Receives `warn`-mode reports; default `console.warn`. */
  readonly warn?: (message: string) => void;
}

/** Options after checking, with the security parts already in document form. */
export interface ResolvedOptions {
  readonly title: string;
  readonly version: string;
  readonly description: string | undefined;
  readonly securitySchemes: Record<string, SecuritySchemeObject> | undefined;
  readonly schemeNames: ReadonlySet<string>;
  readonly security: SecurityRequirement[] | undefined;
  readonly onUnrepresentable: UnrepresentableMode;
  readonly warn: (message: string) => void;
  /** servers, tags, license, contact, externalDocs, checked and copied. */
  readonly info: ResolvedDocumentInfo;
}

const MODES: readonly string[] = ['open', 'warn', 'throw'];

/**
 * Checks options (they often come from untyped config) and resolves defaults. Throws
 * OpenApiGenerationError for anything the document could not honestly contain.
 *
 * @example
 * resolveOptions({ title: 'Blog', version: '1.0.0' }).onUnrepresentable; // 'open'
 */
export function resolveOptions(options: OpenApiDocumentOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null) throw new OpenApiGenerationError('OpenAPI options are required: { title, version }.');
  if (typeof options.title !== 'string') throw new OpenApiGenerationError('OpenAPI option `title` must be a string.');
  if (typeof options.version !== 'string') throw new OpenApiGenerationError('OpenAPI option `version` must be a string.');
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw new OpenApiGenerationError('OpenAPI option `description` must be a string when given.');
  }
  const mode = options.onUnrepresentable ?? 'open';
  if (!MODES.includes(mode)) throw new OpenApiGenerationError(`OpenAPI option \`onUnrepresentable\` must be one of ${MODES.join(', ')}; got ${String(mode)}.`);

  let securitySchemes: Record<string, SecuritySchemeObject> | undefined;
  if (options.securitySchemes !== undefined) {
    securitySchemes = {};
    for (const [name, scheme] of Object.entries(options.securitySchemes)) {
      if (typeof scheme !== 'object' || scheme === null || typeof scheme.type !== 'string') {
        throw new OpenApiGenerationError(`Security scheme '${name}' must be an object with a string \`type\`.`);
      }
      // A JSON copy: "passed through as given" in content, without sharing the caller's objects.
      securitySchemes[name] = JSON.parse(JSON.stringify(scheme)) as SecuritySchemeObject;
    }
  }
  const schemeNames = new Set(Object.keys(securitySchemes ?? {}));

  let security: SecurityRequirement[] | undefined;
  if (options.security !== undefined) {
    if (!Array.isArray(options.security)) throw new OpenApiGenerationError('OpenAPI option `security` must be an array.');
    assertRequirementInputs(options.security, 'The security option');
    security = toSecurityRequirements(options.security);
    assertKnownSchemes(security, schemeNames, 'The security option');
  }

  const warn = options.warn ?? ((message: string) => console.warn(message));
  const info = resolveDocumentInfo(options);
  return {
    info,
    title: options.title,
    version: options.version,
    description: options.description,
    securitySchemes,
    schemeNames,
    security,
    onUnrepresentable: mode,
    warn,
  };
}
