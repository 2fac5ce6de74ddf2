// `tessera-http/client`: typed clients. `createFetchClient` is typed from controller types alone
// (for browsers: nothing of the server is bundled); `createClient` takes the controllers' values
// (server to server, tests). Explicit named exports only.
export { createFetchClient } from './fetch-client.js';
export { createClient } from './create-client.js';
export type { ClientOptions } from './http-call.js';
export type { ApiOf, FetchCall, FetchClient, JoinPaths, SocketCall } from './api-types.js';
export type { TypedSocket, SocketWireInput } from './typed-socket.js';
export type { ClientAnswer, ClientData, ClientOf, ClientOfAll, ClassClientOf, CallInput, RouteCall, Jsonified } from './client-types.js';
