import type { HttpMethod, ParamsSchema, Schema, WebSocketOptions } from '../lib/index.js';
import { methodRecord } from './class-store.js';

function routeDecorator(method: HttpMethod) {
  return (path = ''): MethodDecorator =>
    (target, propertyKey) => {
      const record = methodRecord(target, propertyKey);
      if (record.route) throw new Error(`${String(propertyKey)} already has a route decorator (${record.route.method}).`);
      record.route = { method, path };
    };
}

/** A GET route; the path is relative to the controller prefix. @example @Get(':id') show(@Param('id') id: string) {} */
export const Get: (path?: string) => MethodDecorator = routeDecorator('GET');
/** A POST route. @example @Post() @HttpCode(201) create(@Body(CreatePost) input: CreatePost) {} */
export const Post: (path?: string) => MethodDecorator = routeDecorator('POST');
/** A PUT route. @example @Put(':id') replace(@Param('id') id: string, @Body(Post) post: Post) {} */
export const Put: (path?: string) => MethodDecorator = routeDecorator('PUT');
/** A PATCH route. @example @Patch(':id') update(@Param('id') id: string, @Body(UpdatePost) changes: UpdatePost) {} */
export const Patch: (path?: string) => MethodDecorator = routeDecorator('PATCH');
/** A DELETE route. @example @Delete(':id') remove(@Param('id') id: string): void {} */
export const Delete: (path?: string) => MethodDecorator = routeDecorator('DELETE');

/**
 * A WebSocket route: the same data as the builder's `ws(path, options, handlers)`. The method
 * takes no arguments and returns the handlers; it is called once, on the controller instance, so
 * the handlers reach its injected providers. Guards (`@UseGuards`) and metadata decorators apply
 * to the upgrade request as on any route.
 *
 * @example
 * @Ws('live', { send: Post })
 * live(): WebSocketHandlers<WebSocketConnection, string> {
 *   return { open: (conn) => void conn.subscribe('posts') };
 * }
 */
export function Ws(path = '', options: WebSocketOptions<Schema | undefined, Schema | undefined, Schema | undefined, boolean, ParamsSchema | undefined> = {}): MethodDecorator {
  return (target, propertyKey) => {
    const record = methodRecord(target, propertyKey);
    if (record.route) throw new Error(`${String(propertyKey)} already has a route decorator (${record.route.method}).`);
    record.route = { method: 'GET', path };
    record.webSocket = options;
  };
}

/**
 * Overrides the success status (default 200). A handler returning `undefined` still answers 204.
 *
 * @example
 * @Post() @HttpCode(201) create(@Body(CreatePost) input: CreatePost) { return this.store.create(input); }
 */
export function HttpCode(status: number): MethodDecorator {
  return (target, propertyKey) => {
    methodRecord(target, propertyKey).status = status;
  };
}

/**
 * Declares the success body schema, as the builder's `response` option does: OpenAPI reads it,
 * and the result is serialised by it (undeclared fields stripped, a mismatch is a logged 500).
 * `{ serialize: false }` is the builder's `serializeResponse: false`.
 *
 * @example
 * @Get(':id') @Returns(Post) show(@Param('id') id: string) { return this.store.get(id); }
 * @Get('raw') @Returns(Post, { serialize: false }) raw() { return this.store.first(); }
 */
export function Returns(schema: Schema, options: { readonly serialize?: boolean } = {}): MethodDecorator {
  return (target, propertyKey) => {
    const record = methodRecord(target, propertyKey);
    record.response = schema;
    if (options.serialize === false) record.serializeResponse = false;
  };
}

/**
 * Overrides the app's body size limit for one route, in bytes.
 *
 * @example
 * @Post('upload') @BodyLimit(10 * 1024 * 1024) upload(@Body(Upload) input: Upload) {}
 */
export function BodyLimit(bytes: number): MethodDecorator {
  return (target, propertyKey) => {
    methodRecord(target, propertyKey).bodyLimit = bytes;
  };
}
