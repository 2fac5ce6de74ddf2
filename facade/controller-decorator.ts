import { isZodSchema, type ControllerDefinition, type RequestContext, type RouteDefinition, type Schema, type WebSocketHandlers } from '../lib/index.js';
import type { RouteParts } from '../lib/internal/definitions.js';
import { paramsObjectSchema } from './params-object-schema.js';
import { readDecoratedMetadata } from '../lib/internal/definitions.js';
import { controllerFromParts } from '../lib/internal/definitions.js';
import { routeFromParts, webSocketRoute } from '../lib/internal/definitions.js';
import { z } from 'zod';
import { classRecord, type MethodRecord, type ParamSource } from './class-store.js';
import { attachDefinition, resolveConstructorDeps } from './injectable.js';

type Reader = (ctx: RequestContext) => unknown;

function reader(source: ParamSource): Reader {
  switch (source.kind) {
    case 'param':
      return (ctx) => ctx.params[source.name];
    case 'body':
      return (ctx) => ctx.body;
    case 'query':
      return (ctx) => ctx.query;
    case 'context':
      return (ctx) => ctx;
  }
}

function describeRoute(cls: Function, name: string, method: MethodRecord): RouteParts {
  const where = `${cls.name}.${name}`;
  const params = method.params;
  for (let i = 0; i < params.length; i++) {
    if (!params[i]) throw new Error(`${where}: parameter #${i} has no @Param, @Body, @Query or @Ctx decorator.`);
  }
  const bodies = params.filter((p) => p.kind === 'body');
  const queries = params.filter((p) => p.kind === 'query');
  if (bodies.length > 1) throw new Error(`${where}: only one @Body parameter is allowed.`);
  if (queries.length > 1) throw new Error(`${where}: only one @Query parameter is allowed.`);
  const body = bodies[0];
  const query = queries[0];
  return {
    params: paramsSchemaOf(where, params),
    body: body?.kind === 'body' ? body.schema : undefined,
    query: query?.kind === 'query' ? query.schema : undefined,
    response: method.response,
    serializeResponse: method.serializeResponse,
    status: method.status,
    guards: method.guards,
    interceptors: method.interceptors,
    metadata: readDecoratedMetadata((cls as { prototype: object }).prototype, name),
    bodyLimit: method.bodyLimit,
    webSocket: undefined,
  };
}

/**
 * The `params` option of a method: one `z.object` of its `@Param(name, schema)` schemas, as a
 * `defineController` route would declare it (or, when some are another library's, one Standard
 * Schema over them, see paramsObjectSchema); undefined when no `@Param` has a schema. A name given
 * twice must be given the same schema (or none), or the method would read two different values.
 */
function paramsSchemaOf(where: string, params: readonly ParamSource[]): Schema | undefined {
  const shape: Record<string, Schema> = {};
  for (const source of params) {
    if (source.kind !== 'param' || source.schema === undefined) continue;
    const known = shape[source.name];
    if (known !== undefined && known !== source.schema) throw new Error(`${where}: @Param('${source.name}') is given two different schemas; give it one.`);
    shape[source.name] = source.schema;
  }
  for (const source of params) {
    if (source.kind === 'param' && source.schema === undefined && shape[source.name] !== undefined) {
      throw new Error(`${where}: @Param('${source.name}') is read both with and without a schema; give every @Param('${source.name}') the same schema.`);
    }
  }
  const schemas = Object.values(shape);
  if (schemas.length === 0) return undefined;
  // All zod: a real z.object (its keys are read by the route table and OpenAPI); else one
  // Standard Schema over the parameters, each by its own library.
  return schemas.every(isZodSchema) ? z.object(shape as Record<string, z.ZodType>) : paramsObjectSchema(shape);
}

/**
 * The ControllerDefinition of a decorated controller class: the same data `defineController`
 * returns, with one route per decorated method (named after the method) whose handler calls
 * that method on the DI-built instance with the decorated arguments.
 *
 * @example
 * controllerFromClass(PostsController).prefix; // '/posts'
 */
export function controllerFromClass(cls: new (...args: never[]) => object, prefix: string): ControllerDefinition {
  const record = classRecord(cls);
  const routes = [...record.methods].filter(([, m]) => m.route !== undefined);
  const described = routes.map(([name, method]) => ({ name, method, parts: describeRoute(cls, name, method) }));
  // Paths written in decorators are relative: '' and ':id' mean '/' and '/:id' under the prefix.
  for (const { name, method } of described) {
    const path = method.route?.path ?? '';
    if (method.params.some((p) => p.kind === 'param' && !new RegExp(`(^|/):${p.name}(/|$)`).test(`${prefix}/${path}`))) {
      throw new Error(`${cls.name}.${name}: @Param names a parameter that its path ${prefix}/${path} does not declare.`);
    }
  }
  return controllerFromParts({
    name: cls.name,
    prefix,
    inject: resolveConstructorDeps(cls),
    guards: record.guards,
    interceptors: record.interceptors,
    metadata: readDecoratedMetadata(cls),
    setup: (...deps: never[]) => {
      const instance = new cls(...deps);
      const map: Record<string, RouteDefinition> = {};
      for (const { name, method, parts } of described) {
        const fn = (instance as Record<string, unknown>)[name] as (...args: unknown[]) => unknown;
        const route = method.route as NonNullable<MethodRecord['route']>;
        if (method.webSocket !== undefined) {
          // A @Ws method returns its handlers, once, from the built instance (so they reach its providers).
          map[name] = webSocketRoute(route.path, method.webSocket, parts, fn.call(instance) as WebSocketHandlers<never, never>);
          continue;
        }
        const readers = method.params.map(reader);
        const handler =
          readers.length === 0
            ? () => fn.call(instance)
            : (ctx: RequestContext) => fn.apply(instance, readers.map((read) => read(ctx)));
        map[name] = routeFromParts(route.method, route.path, parts, handler);
      }
      return { routes: Object.freeze(map), instance };
    },
  });
}

/**
 * Declares a controller class; its constructor parameters are injected by type.
 *
 * @example
 * @Controller('posts')
 * export class PostsController {
 *   constructor(private readonly store: PostsStore) {}
 *   @Get() list() { return this.store.list(); }
 * }
 */
export function Controller(prefix = ''): ClassDecorator {
  return (target) => {
    attachDefinition(target, () => controllerFromClass(target as unknown as new (...args: never[]) => object, prefix));
  };
}
