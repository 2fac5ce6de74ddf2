import type { Router, RouterEntry } from '../routing/router.js';
import type { Dispatch, RespondingRoute } from './dispatch.js';

interface RecordedRouting {
  readonly router: Router<RespondingRoute>;
  readonly general: Dispatch;
}

const routings = new WeakMap<object, RecordedRouting>();

/**
 * Remembers an app's router and general walk, for {@link respondingRoutesOf} and {@link generalDispatchOf}.
 *
 * @example
 * recordRouting(app, { router, general });
 */
export function recordRouting(app: object, routing: RecordedRouting): void {
  routings.set(app, routing);
}

/**
 * The routes of an app, each with its responder, for a server adapter that routes on its own
 * (Bun's native `routes`); undefined for an app `createApp` did not make. The array is live:
 * routes added later (`addRawRoute`) make it longer, which tells the adapter that its copy of
 * the table is stale.
 *
 * @example
 * const entries = respondingRoutesOf(app);
 * for (const { method, path, value } of entries ?? []) console.log(method, path, value.respond);
 */
export function respondingRoutesOf(app: object): readonly RouterEntry<RespondingRoute>[] | undefined {
  return routings.get(app)?.router.entries;
}

/**
 * An app's general walk (context, middleware, router, pipeline for every request): the reference
 * its routes' responders are compared with in the property tests; undefined for an app
 * `createApp` did not make.
 *
 * @example
 * generalDispatchOf(app)?.(incomingFromRequest(request), (answer) => answers.push(answer));
 */
export function generalDispatchOf(app: object): Dispatch | undefined {
  return routings.get(app)?.general;
}
