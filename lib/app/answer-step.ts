import type { RouteInfo } from '../context/route-info.js';
import { jsonAnswer, jsonTextAnswer, type Answer } from '../http/answer.js';
import { compileResponseWriter } from '../schema/response-writer.js';

/**
 * A route's answer step: what its handler returned (after the interceptors) made into the
 * route's answer. Compiled once per route; a promise only for a response schema whose
 * validation is asynchronous. Throws (or rejects) when the value does not fit the response schema.
 *
 * @example
 * const toAnswer = compileAnswerStep({ controller: 'Posts', name: 'create', status: 201, response: Post }, true);
 * toAnswer({ id: '1', title: 'Hi' }); // { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"1","title":"Hi"}' }
 */
export type AnswerStep = (value: unknown) => Answer | Promise<Answer>;

/** What an answer step is compiled from: the route's status, response schema and serialisation choice. */
export type AnswerStepRoute = Pick<RouteInfo, 'controller' | 'name' | 'status' | 'response'> & Partial<Pick<RouteInfo, 'webSocket'>>;

/**
 * An answer the route's own answer step already made, handed back through the pipeline by an
 * interceptor that needed it (`idempotent()` stores it): the step passes it on as it is, so a
 * route's answer is made once, by one function, whoever asks for it.
 *
 * @example
 * return new MadeAnswer(await answerStepOf(ctx.route)(value));
 */
export class MadeAnswer {
  constructor(readonly answer: Answer) {}
}

/**
 * The answer step of a route: a Response as it is; `undefined` as 204; any other value as JSON
 * with the route's status, written by its response schema's serialiser (undeclared fields
 * stripped) unless `serializeResponse` is false; a {@link MadeAnswer} as the answer it holds
 * (checked only on a route with interceptors, the only place one can come from). A WebSocket
 * route's handler (the app's hub accepting the upgrade) answers by itself.
 *
 * @example
 * const toAnswer = compileAnswerStep(route, route.serializeResponse !== false, route.interceptors.length > 0);
 */
export function compileAnswerStep(route: AnswerStepRoute, serializeResponse: boolean, intercepted = false): AnswerStep {
  const status = route.status;
  if (route.webSocket !== undefined) return (value) => value as Answer;
  const serialize = route.response === undefined || !serializeResponse ? undefined : compileResponseWriter(route.response, `${route.controller}.${route.name}`);
  const step: AnswerStep =
    serialize === undefined
      ? (value) => (value instanceof Response ? value : jsonAnswer(status, value))
      : // `undefined` stays 204 (see RouteOptions.status); a mismatch throws to the app's 500.
        (value) => {
          if (value instanceof Response) return value;
          if (value === undefined) return jsonAnswer(status, undefined);
          const text = serialize(value);
          return typeof text === 'string' || text === undefined ? jsonTextAnswer(status, text) : text.then((written) => jsonTextAnswer(status, written));
        };
  return intercepted ? (value) => (value instanceof MadeAnswer ? value.answer : step(value)) : step;
}

const steps = new WeakMap<object, AnswerStep>();

/**
 * Remembers a route's answer step under its table entry, for {@link answerStepOf}: the route
 * table does it as it compiles each route.
 *
 * @example
 * recordAnswerStep(info, toAnswer);
 */
export function recordAnswerStep(route: RouteInfo, step: AnswerStep): void {
  steps.set(route, step);
}

/**
 * The answer step the pipeline compiled for a route (by its `ctx.route`), for an interceptor
 * that must make the route's answer itself (`idempotent()` stores and replays it); undefined for
 * a route the route table did not compile.
 *
 * @example
 * const toAnswer = answerStepOf(ctx.route);
 */
export function answerStepOf(route: RouteInfo): AnswerStep | undefined {
  return steps.get(route);
}
