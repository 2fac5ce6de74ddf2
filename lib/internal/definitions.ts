// Internal entry (not in the package's `exports`; names move between releases): building
// controllers, routes and WebSocket routes from parts, and reading what decorators recorded, for
// the facade and the other front ends.
export { controllerFromParts } from '../routing/controller.js';
export { routeFromParts, type RouteParts } from '../routing/route.js';
export { webSocketRoute } from '../routing/web-socket-route.js';
export type { WebSocketSpec } from '../routing/web-socket-spec.js';
export type { RouteShape } from '../context/route-info.js';
export { joinPaths, routeShape } from '../routing/path.js';
export { readDecoratedMetadata, metadataRecord } from '../common/metadata.js';
export { DEFINITION, hasDefinition, type DefinitionCarrier } from '../common/definition-carrier.js';
