import type { HttpMethod } from '../index.js';
import type { FetchClient } from './api-types.js';
import { connect, fillPath, queryString, sendCall, type ClientOptions, type WireInput } from './http-call.js';
import { openTypedSocket, type SocketWireInput } from './typed-socket.js';

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * A typed client for browsers and any other place the server's code should not go: typed from
 * `ApiOf<[...controllers]>` (a type, imported with `import type`), it carries no route table
 * and no schema, only what it takes to send a request and read the answer (about 1.5 KB minified).
 * Calls name the method and the path template as the server declares it; params are required
 * when the path has them (on the `params` schema's input side where the route has one), body and
 * query are on their input side, `data` is the response schema's output (else the handler's
 * result) as JSON delivers it (`Jsonified`: a `z.date()` is a string), and an HTTP error status resolves to
 * `{ ok: false, problem }`, never a throw. A path the API lacks, a missing param or a wrong body
 * field is a compile error. `socket(path, { params, query, token })` opens a WebSocket route,
 * typed both ways (see TypedSocket).
 *
 * @example
 * import type { ApiOf } from 'tessera-http/client';
 * import type { postsController } from '../server/posts.js';
 * const api = createFetchClient<ApiOf<[typeof postsController]>>('https://api.example.com');
 * const created = await api.POST('/posts', { body: { title: 'Hello' } });
 * if (created.ok) await api.GET('/posts/:id', { params: { id: created.data.id } });
 */
export function createFetchClient<Api>(options: string | ClientOptions): FetchClient<Api> {
  const connection = connect(options);
  const client: Partial<Record<HttpMethod, (path: string, input?: WireInput) => Promise<unknown>>> = {};
  for (const method of METHODS) {
    client[method] = async (path, input = {}) => {
      const missing = (name: string) => new TypeError(`${method} ${path}: path parameter '${name}' is missing.`);
      return sendCall(connection, method, fillPath(path, input.params, missing), input);
    };
  }
  const socket = (path: string, input: SocketWireInput = {}) => {
    const filled = fillPath(path, input.params, (name) => new TypeError(`socket ${path}: path parameter '${name}' is missing.`));
    return openTypedSocket(`${connection.base}${filled}${queryString(input.query)}`, input, connection.WebSocket);
  };
  return { ...client, socket } as unknown as FetchClient<Api>;
}
