import type { Router, RouterEntry } from '../routing/router.js';
import type { Dispatch, ServedRoute } from './dispatch.js';

interface RecordedServing {
  readonly router: Router<ServedRoute>;
  readonly general: Dispatch;
}

const servings = new WeakMap<object, RecordedServing>();

/** Remembers how an app `createApp` made serves requests, for {@link servedRoutesOf} and {@link generalDispatchOf}. */
export function recordServing(app: object, serving: RecordedServing): void {
  servings.set(app, serving);
}

/**
 * The routes an app serves, each with its answering function, for a server adapter that routes
 * on its own (Bun's native `routes`); undefined for an app `createApp` did not make. The array is
 * live: routes added later (`addRawRoute`) make it longer, which tells the adapter that its copy
 * of the table is stale.
 *
 * @example
 * const entries = servedRoutesOf(app);
 * for (const { method, path, value } of entries ?? []) console.log(method, path, value.answer);
 */
export function servedRoutesOf(app: object): readonly RouterEntry<ServedRoute>[] | undefined {
  return servings.get(app)?.router.entries;
}

/**
 * An app's general walk (context, middleware, router, pipeline for every request): the reference
 * its routes' answering functions are compared with in the property tests; undefined for an app
 * `createApp` did not make.
 *
 * @example
 * generalDispatchOf(app)?.(incomingFromRequest(request), (answer) => answers.push(answer));
 */
export function generalDispatchOf(app: object): Dispatch | undefined {
  return servings.get(app)?.general;
}
