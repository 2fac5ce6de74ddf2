import type { GuardToken, InjectionToken, InterceptorToken, HttpMethod, ParamsSchema, Schema, WebSocketOptions } from '../lib/index.js';

/** How one handler parameter is filled. */
export type ParamSource =
  | { readonly kind: 'param'; readonly name: string; readonly schema: Schema | undefined }
  | { readonly kind: 'body'; readonly schema: Schema }
  | { readonly kind: 'query'; readonly schema: Schema | undefined }
  | { readonly kind: 'context' };

/** What the method decorators recorded for one method. */
export interface MethodRecord {
  route?: { method: HttpMethod; path: string };
  /** Set by @Ws: the socket options; the method returns the handlers. */
  webSocket?: WebSocketOptions<Schema | undefined, Schema | undefined, Schema | undefined, boolean, ParamsSchema | undefined>;
  status?: number;
  response?: Schema;
  serializeResponse?: boolean;
  bodyLimit?: number;
  guards: GuardToken[];
  interceptors: InterceptorToken[];
  params: ParamSource[];
}

/** What the decorators recorded on one class. */
export interface ClassRecord {
  /** Constructor parameter index -> explicit token from @Inject. */
  readonly injects: Map<number, InjectionToken<unknown>>;
  readonly methods: Map<string, MethodRecord>;
  readonly guards: GuardToken[];
  readonly interceptors: InterceptorToken[];
}

// An own property on the class, not a module-level map: two copies of the package still agree.
const RECORD = Symbol.for('tessera:facade');

/**
 * The record of a class, created on first use.
 *
 * @example
 * classRecord(PostsController).methods.get('list');
 */
export function classRecord(cls: object): ClassRecord {
  if (Object.prototype.hasOwnProperty.call(cls, RECORD)) return (cls as Record<symbol, ClassRecord>)[RECORD] as ClassRecord;
  const record: ClassRecord = { injects: new Map(), methods: new Map(), guards: [], interceptors: [] };
  Object.defineProperty(cls, RECORD, { value: record, enumerable: false });
  return record;
}

/**
 * The record of one method, created on first use. Method and parameter decorators receive the
 * prototype; the record lives on its constructor.
 *
 * @example
 * methodRecord(PostsController.prototype, 'list').route; // { method: 'GET', path: '' }
 */
export function methodRecord(prototype: object, name: string | symbol): MethodRecord {
  if (typeof name !== 'string') throw new TypeError('Tessera route decorators need string method names.');
  const methods = classRecord((prototype as { constructor: object }).constructor).methods;
  let record = methods.get(name);
  if (!record) methods.set(name, (record = { guards: [], interceptors: [], params: [] }));
  return record;
}
