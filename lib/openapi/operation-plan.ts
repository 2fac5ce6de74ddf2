import { readMetadata, readRouteMetadata } from '../index.js';
import { readAccessRules } from '../internal/access-rules.js';
import type { RouteInfo } from '../index.js';
import { API_OPERATION, type ApiOperationOptions } from './api-operation.js';
import { readApiResponses, type ApiResponseOptions } from './api-response.js';
import { API_REQUEST_BODY, type ApiRequestBodyOptions } from './api-request-body.js';
import { API_SECURITY } from './api-security.js';
import { API_TAGS } from './api-tags.js';
import { defaultOperationId, defaultSummary, defaultTag } from './operation-defaults.js';
import type { OpenApiMethod, SecurityRequirement } from './openapi-document.js';
import { OpenApiGenerationError } from './openapi-generation-error.js';
import type { ResolvedOptions } from './openapi-options.js';
import { toOpenApiPath } from './path-template.js';
import { assertKnownSchemes, toSecurityRequirements } from './security-requirement.js';

/** Everything about one operation that needs no schema conversion. */
export interface PlannedOperation {
  readonly route: RouteInfo;
  /** `Controller.route (METHOD /path)`, for messages. */
  readonly where: string;
  readonly path: string;
  readonly method: OpenApiMethod;
  readonly operationId: string;
  readonly summary: string | undefined;
  readonly description: string | undefined;
  readonly deprecated: boolean | undefined;
  readonly tags: string[];
  readonly security: SecurityRequirement[] | undefined;
  /**
   * Refusals the generator can tell the route may answer: 401 when its effective security
   * (its own ApiSecurity, else the document's) asks for a credential; 403 when a requirement
   * lists scopes or the route has guards of its own (a guard's `false` is a 403).
   */
  readonly refusals: { readonly unauthorized: boolean; readonly forbidden: boolean };
  readonly responses: ReadonlyMap<number, ApiResponseOptions>;
  /** A request body declared with `ApiRequestBody` (a form, bytes), instead of the route's JSON body. */
  readonly requestBody: ApiRequestBodyOptions | undefined;
}

/**
 * The cheap half of generation: path templates, operation metadata, operation ids and security,
 * with every configuration check (unknown scheme, duplicate operationId). `serveOpenApi` runs it
 * at mount time so that these mistakes fail at boot.
 *
 * @example
 * const operations = planOperations(app.routes, resolveOptions(options));
 */
export function planOperations(routes: readonly RouteInfo[], options: ResolvedOptions): PlannedOperation[] {
  const planned: PlannedOperation[] = [];
  const ids = new Map<string, string>();
  for (const route of routes) {
    const path = toOpenApiPath(route.path);
    if (path === undefined) continue;
    const where = `${route.controller}.${route.name} (${route.method} ${route.path})`;

    // A controller's ApiOperation supplies defaults field by field; an operationId names one
    // operation, so only the route's own counts.
    const op: ApiOperationOptions = readRouteMetadata(route, API_OPERATION) ?? {};
    const operationId = readMetadata(route.metadata, API_OPERATION)?.operationId ?? defaultOperationId(route.controller, route.name);
    const clash = ids.get(operationId);
    if (clash !== undefined) {
      throw new OpenApiGenerationError(
        `Duplicate operationId '${operationId}': ${clash} and ${where}. Set a unique one with ApiOperation({ operationId }).`,
      );
    }
    ids.set(operationId, where);

    const tags = readRouteMetadata(route, API_TAGS) ?? [];

    const declared = readRouteMetadata(route, API_SECURITY);
    // The auth metadata (Public, Roles, RequireScopes) documents itself; ApiSecurity overrides it.
    const access = readAccessRules(route);
    let security: SecurityRequirement[] | undefined;
    let description = op.description;
    if (declared !== undefined) {
      security = declared === false ? [] : toSecurityRequirements(declared);
      assertKnownSchemes(security, options.schemeNames, `ApiSecurity on ${where}`);
    } else if (access.isPublic) {
      security = [];
    } else if (access.scopes !== undefined && access.scopes.length > 0) {
      const apiKey = apiKeySchemeOf(options);
      if (apiKey !== undefined) {
        security = withApiKeyScopes(options.security ?? [], apiKey, access.scopes);
        const needed = `API keys need the scope${access.scopes.length > 1 ? 's' : ''} ${access.scopes.map((scope) => `\`${scope}\``).join(', ')}.`;
        description = description === undefined ? needed : `${description}\n\n${needed}`;
      }
    }

    const effective = security ?? options.security ?? [];
    const refusals = {
      unauthorized: effective.some((requirement) => Object.keys(requirement).length > 0),
      forbidden:
        effective.some((requirement) => Object.values(requirement).some((scopes) => scopes.length > 0)) ||
        route.guards.length > 0 ||
        (!access.isPublic && ((access.roles?.length ?? 0) > 0 || (access.scopes?.length ?? 0) > 0)),
    };

    planned.push({
      route,
      where,
      path,
      method: route.method.toLowerCase() as OpenApiMethod,
      operationId,
      summary: op.summary ?? defaultSummary(route.name),
      description,
      deprecated: op.deprecated,
      tags: tags.length === 0 ? [defaultTag(route.controller)] : [...new Set(tags)],
      security,
      refusals,
      responses: readApiResponses(route),
      requestBody: readRouteMetadata(route, API_REQUEST_BODY),
    });
  }
  return planned;
}

/**
 * The name of the document's API-key security scheme (`type: apiKey`, not in a cookie), if it
 * declares one. A cookie `apiKey` scheme is a browser session (an access token in a cookie, see
 * `browserSessionSecurityScheme` in tessera-http/auth): tokens are never held to scopes.
 */
function apiKeySchemeOf(options: ResolvedOptions): string | undefined {
  for (const [name, scheme] of Object.entries(options.securitySchemes ?? {})) if (scheme.type === 'apiKey' && scheme.in !== 'cookie') return name;
  return undefined;
}

/**
 * The document's requirements with `scopes` on the API-key scheme: where a requirement names it,
 * its scopes are the route's; without one, the key is added as an alternative (a route with
 * scopes accepts keys that hold them).
 */
function withApiKeyScopes(requirements: readonly SecurityRequirement[], apiKey: string, scopes: readonly string[]): SecurityRequirement[] {
  let named = false;
  const out = requirements.map((requirement) => {
    if (!(apiKey in requirement)) return { ...requirement };
    named = true;
    return { ...requirement, [apiKey]: [...scopes] };
  });
  if (!named) out.push({ [apiKey]: [...scopes] });
  return out;
}
