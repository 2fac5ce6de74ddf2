import { TesseraError, type ControllerDefinition, type ControllerInput, type RouteMap } from '../index.js';
import { DEFINITION, hasDefinition, joinPaths } from '../internal/definitions.js';
import type { ClassClientOf, ClientOf, ClientOfAll } from './client-types.js';
import { connect, fillPath, sendCall, type ClientOptions, type WireInput } from './http-call.js';

/** A controller's routes without its dependencies: placeholders that refuse any use at build time. */
function routesOf(input: ControllerInput): { name: string; prefix: string; routes: RouteMap } {
  const definition = (hasDefinition(input) ? input[DEFINITION]() : input) as ControllerDefinition;
  if (definition?.kind !== 'controller') throw new TesseraError('CLIENT_INVALID', 'createClient takes controllers made by defineController or @Controller.');
  const placeholders = definition.inject.map(
    (_, index) =>
      new Proxy(() => undefined, {
        get: (_target, property) => {
          if (property === 'then') return undefined; // not a thenable, if anything awaits it
          throw new TesseraError('CLIENT_ROUTES', `${definition.name}: building its routes used dependency #${index + 1}; a client builds them without dependencies, so use dependencies inside handlers only.`);
        },
        apply: () => {
          throw new TesseraError('CLIENT_ROUTES', `${definition.name}: building its routes called dependency #${index + 1}.`);
        },
      }),
  );
  return { name: definition.name, prefix: definition.prefix, routes: definition.setup(...(placeholders as never[])).routes };
}

/**
 * A typed client for controllers made with `defineController`: one method per route name, taking
 * `{ params, query, body, headers }` typed from the route (path parameters required, on the
 * `params` schema's input side where the route has one; body and query on their input side) and
 * resolving to `{ ok: true, status, data }` or `{ ok: false, status, problem }`. `data` is typed as
 * JSON delivers it (`Jsonified`): the response schema's output (else the handler's result) with
 * a `z.date()` as the ISO string the server wrote.
 * It never throws for an HTTP error status. Several controllers make one client (route names
 * must then differ). A WebSocket route (`ws(...)`) is no call: its method is typed `never` and
 * rejects with `CLIENT_ROUTES` if called anyway (`createFetchClient`'s `socket` opens it).
 * Controllers of the class style work at run time; their types give method names only
 * (parameter decorators do not reach types).
 *
 * The route map is built once, without dependencies: a `routes(...)` function must use its
 * dependencies only inside handlers (it gets placeholders that throw when touched).
 *
 * @example
 * const client = createClient(postsController, { baseUrl: 'http://localhost:3000' });
 * const created = await client.create({ body: { title: 'Hello' } });
 * if (created.ok) console.log(created.data.id);
 */
export function createClient<const C extends ControllerDefinition<RouteMap, string>>(controller: C, options: string | ClientOptions): ClientOf<C>;
export function createClient<const Cs extends readonly ControllerDefinition<RouteMap, string>[]>(controllers: Cs, options: string | ClientOptions): ClientOfAll<Cs>;
export function createClient<C extends abstract new (...args: never[]) => unknown>(controller: C, options: string | ClientOptions): ClassClientOf<C>;
export function createClient(controllers: ControllerInput | readonly ControllerInput[], options: string | ClientOptions): Record<string, (input?: WireInput) => Promise<unknown>> {
  const connection = connect(options);
  const client: Record<string, (input?: WireInput) => Promise<unknown>> = {};
  for (const controller of Array.isArray(controllers) ? controllers : [controllers]) {
    const { name: controllerName, prefix, routes } = routesOf(controller as ControllerInput);
    for (const [name, route] of Object.entries(routes)) {
      if (name in client) throw new TesseraError('CLIENT_INVALID', `Two controllers name a route '${name}'; give one client per controller, or rename one.`);
      const path = joinPaths(prefix, route.path);
      if (route.webSocket !== undefined) {
        // Typed `never` on the client: no HTTP call can open a WebSocket.
        client[name] = () => Promise.reject(new TesseraError('CLIENT_ROUTES', `${controllerName}.${name} is a WebSocket route (${path}): open it with createFetchClient(...).socket('${path}'), not as an HTTP call.`));
        continue;
      }
      const missing = (param: string) => new TesseraError('CLIENT_INPUT', `${controllerName}.${name}: path parameter '${param}' is missing.`);
      client[name] = async (input: WireInput = {}) => sendCall(connection, route.method, fillPath(path, input.params, missing), input);
    }
  }
  return client;
}
