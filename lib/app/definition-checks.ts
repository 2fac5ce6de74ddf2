import { tokenName } from '../di/token.js';
import { RouteDefinitionError } from '../routing/route-definition-error.js';

// What TypeScript checks for typed code, checked again at boot for what reaches createApp
// untyped (plain JavaScript, `as any`, a circular import that left a binding undefined): without
// it, such a definition boots and then fails every request with a bare 500 that names no route.

/** What a value is, for a message: `undefined`, `a plain object`, `a string`, `class Foo`. */
function describe(value: unknown): string {
  if (value === undefined || value === null) return String(value);
  if (typeof value === 'function') return value.name === '' ? 'an anonymous function' : `${value.name}`;
  if (typeof value === 'object') return Object.getPrototypeOf(value) === Object.prototype ? 'a plain object' : `an instance of ${value.constructor.name}`;
  return `a ${typeof value}`;
}

/** Whether a value is a zod 4 schema (read beyond Standard Schema: a params object's keys). */
function isZodSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value && typeof (value as { safeParse?: unknown }).safeParse === 'function';
}

/** Whether a value is a Standard Schema v1 (zod 4, valibot, ArkType, ...; ArkType's are functions). */
function isStandardSchema(value: unknown): boolean {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const standard = (value as { '~standard'?: { version?: unknown; validate?: unknown } })['~standard'];
  return typeof standard === 'object' && standard !== null && standard.version === 1 && typeof standard.validate === 'function';
}

/**
 * Refuses a route option that should hold a schema (any Standard Schema) but holds something else.
 *
 * @example
 * assertSchema('PostsController.create', 'body', route.body);
 */
export function assertSchema(where: string, option: 'body' | 'query' | 'response' | 'message' | 'send', value: unknown): void {
  if (value === undefined || isStandardSchema(value)) return;
  throw new RouteDefinitionError(`${where}: '${option}' is ${describe(value)}, not a schema. Route schemas are Standard Schemas (zod 4, valibot, ArkType, ...), e.g. ${option}: z.object({ title: z.string() }).`);
}

/**
 * Refuses a `params` option that is neither a zod object nor another Standard Schema, or a zod
 * object that names a parameter the route's full path (controller prefix joined) does not
 * declare: such a parameter would never be given, so every request would fail its validation.
 * Another library's schema cannot be read for its keys: it is given every path parameter.
 *
 * @example
 * assertParamsSchema('PostsController.show', 'GET /posts/:id', route.paramsSchema, ['id']);
 */
export function assertParamsSchema(where: string, route: string, schema: unknown, pathNames: readonly string[]): void {
  if (schema === undefined || (!isZodSchema(schema) && isStandardSchema(schema))) return;
  const def = isZodSchema(schema) ? (schema as { _zod: { def: { type?: unknown; shape?: Record<string, unknown> } } })._zod.def : undefined;
  if (def?.type !== 'object' || def.shape === undefined) {
    throw new RouteDefinitionError(`${where} (${route}): 'params' is ${describe(schema)}${isZodSchema(schema) ? ` of type '${String(def?.type)}'` : ''}, not a zod object. Path parameters are parsed by a zod object naming them, e.g. params: z.object({ id: z.coerce.number().int() }).`);
  }
  for (const name of Object.keys(def.shape)) {
    if (!pathNames.includes(name)) {
      const declared = pathNames.length === 0 ? 'declares no parameter' : `declares ${pathNames.map((n) => `'${n}'`).join(', ')}`;
      throw new RouteDefinitionError(`${where} (${route}): 'params' names the path parameter '${name}', which the path does not declare (it ${declared}).`);
    }
  }
}

/**
 * Refuses a handler that is not a function.
 *
 * @example
 * assertHandler('PostsController.create', route.handler);
 */
export function assertHandler(where: string, handler: unknown): void {
  if (typeof handler !== 'function') throw new RouteDefinitionError(`${where}: the handler is ${describe(handler)}, not a function.`);
}

/**
 * Refuses an entry of a guard or interceptor list that cannot be resolved: undefined (often an
 * import that did not resolve, or a circular import), or neither a class nor a `createToken` token.
 *
 * @example
 * assertTokens('PostsController.create', 'guards', route.guards);
 */
export function assertTokens(where: string, list: 'guards' | 'interceptors', tokens: readonly unknown[]): void {
  tokens.forEach((token, index) => {
    if (typeof token === 'function') return;
    if (typeof token === 'object' && token !== null && (token as { kind?: unknown }).kind === 'token') return;
    const hint = token === undefined ? ' (an import that did not resolve, or a circular import?)' : '; give the class itself, or a token from createToken';
    throw new RouteDefinitionError(`${where}: ${list}[${index}] is ${describe(token)}${hint}.`);
  });
}

/**
 * Refuses a resolved guard or interceptor without its method (`canActivate`, `intercept`).
 *
 * @example
 * assertMethod('PostsController.create', 'guard', AuthGuard, instance, 'canActivate');
 */
export function assertMethod(where: string, kind: 'guard' | 'interceptor', token: unknown, instance: unknown, method: 'canActivate' | 'intercept'): void {
  if (typeof (instance as Record<string, unknown> | null | undefined)?.[method] === 'function') return;
  throw new RouteDefinitionError(`${where}: the ${kind} ${tokenName(token)} has no ${method}(ctx${method === 'intercept' ? ', next' : ''}) method.`);
}
