// Internal entry (not in the package's `exports`; names move between releases): the request path
// beyond the public API, for the server adapters, the fetch entry and the testing app: dispatch,
// the incoming request over a web Request, body limits, the request target, answers.
export { responseOf, type ResponseSource } from '../app/reply.js';
export { generalDispatchOf, respondingRoutesOf } from '../app/responding-routes.js';
export type { RouteResponder, RespondingRoute } from '../app/dispatch.js';
export { nativeRouteTable, mayRouteNatively } from '../routing/native-routes.js';
export type { RouterEntry } from '../routing/router.js';
export { serverClose } from '../app/server-close.js';
export { incomingFromRequest, incomingOfRoutedRequest } from '../http/fetch-incoming.js';
export { limitBody, readStreamWithLimit, tooLarge } from '../http/body-limit.js';
export { statusText } from '../http/status-text.js';
export { parseRequestTarget, normalizeHost, type RequestTarget } from '../http/request-target.js';
export { toResponse, type SharedHeadersForm } from '../http/answer.js';
export { requestScheme } from '../context/request-scheme.js';
export { answerStepOf, MadeAnswer, type AnswerStep } from '../app/answer-step.js';
