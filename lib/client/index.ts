// `tessera-http/client`: typed clients from controller definitions. Explicit named exports only.
export { createClient, type ClientOptions } from './create-client.js';
export type { ClientAnswer, ClientData, ClientOf, ClientOfAll, ClassClientOf, CallInput, RouteCall, Jsonified } from './client-types.js';
