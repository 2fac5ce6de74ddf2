import { readMetadata, readRouteMetadata } from '../internal.js';
import type { RouteInfo } from '../internal.js';
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
    let security: SecurityRequirement[] | undefined;
    if (declared !== undefined) {
      security = declared === false ? [] : toSecurityRequirements(declared);
      assertKnownSchemes(security, options.schemeNames, `ApiSecurity on ${where}`);
    }

    const effective = security ?? options.security ?? [];
    const refusals = {
      unauthorized: effective.some((requirement) => Object.keys(requirement).length > 0),
      forbidden: effective.some((requirement) => Object.values(requirement).some((scopes) => scopes.length > 0)) || route.guards.length > 0,
    };

    planned.push({
      route,
      where,
      path,
      method: route.method.toLowerCase() as OpenApiMethod,
      operationId,
      summary: op.summary ?? defaultSummary(route.name),
      description: op.description,
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
