import { TesseraError } from '../common/tessera-error.js';

/**
 * A route the router cannot serve, found at boot: a bad path (`*` not last, `:` inside a
 * segment, a repeated parameter), a duplicate route, a non-2xx success status. Code `ROUTE_INVALID`.
 *
 * @example
 * try { await createApp(AppModule); } catch (error) { if (error instanceof RouteDefinitionError) console.error(error.message); }
 */
export class RouteDefinitionError extends TesseraError {
  constructor(message: string) {
    super('ROUTE_INVALID', message);
  }
}
