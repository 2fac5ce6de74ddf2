import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from './create-app.js';
import { defineController } from '../routing/controller.js';
import { get, post } from '../routing/route.js';
import { defineModule } from '../modules/module.js';

// The mistakes types would catch, made as plain JavaScript (or `as any`) makes them: each must
// fail createApp with a TesseraError naming the controller and route, not boot and fail every request.

/** The boot error of an app whose one controller has `routes`. */
async function bootError(routes: () => Record<string, unknown>, controllerExtra: Record<string, unknown> = {}): Promise<{ code?: string; message: string }> {
  const controller = defineController({ name: 'ItemsController', prefix: '/items', routes, ...controllerExtra } as never);
  return createApp(defineModule({ name: 'M', controllers: [controller] })).then(
    () => ({ message: 'createApp succeeded' }),
    (error: { code?: string; message: string }) => error,
  );
}

describe('createApp refuses definitions that bypassed the types', () => {
  it('a plain object as body schema', async () => {
    const error = await bootError(() => ({ create: post('/', { body: { title: 'string' } } as never, () => 'x') }));
    expect(error.code).toBe('ROUTE_INVALID');
    expect(error.message).toBe("ItemsController.create: 'body' is a plain object, not a schema. Route schemas are Standard Schemas (zod 4, valibot, ArkType, ...), e.g. body: z.object({ title: z.string() }).");
  });

  it('a non-schema query and response', async () => {
    expect((await bootError(() => ({ list: get('/', { query: 'page' } as never, () => []) }))).message).toMatch(/^ItemsController\.list: 'query' is a string, not a schema/);
    expect((await bootError(() => ({ list: get('/', { response: z.object({}).shape } as never, () => []) }))).message).toMatch(/^ItemsController\.list: 'response' is a plain object, not a schema/);
  });

  it('an undefined guard, with the likely cause', async () => {
    const error = await bootError(() => ({ list: get('/', { guards: [undefined] } as never, () => []) }));
    expect(error.message).toBe('ItemsController.list: guards[0] is undefined (an import that did not resolve, or a circular import?).');
  });

  it('a guard class without canActivate', async () => {
    class NotAGuard {
      check() {
        return true;
      }
    }
    const error = await bootError(() => ({ list: get('/', { guards: [NotAGuard] } as never, () => []) }));
    expect(error.code).toBe('ROUTE_INVALID');
    expect(error.message).toBe('ItemsController.list: the guard NotAGuard has no canActivate(ctx) method.');
  });

  it('a guard object instead of a class or token', async () => {
    const error = await bootError(() => ({ list: get('/', { guards: [{ canActivate: () => true }] } as never, () => []) }));
    expect(error.message).toBe('ItemsController.list: guards[0] is a plain object; give the class itself, or a token from createToken.');
  });

  it('a controller interceptor without intercept', async () => {
    class Timing {}
    const error = await bootError(() => ({ list: get('/', () => []) }), { interceptors: [Timing] });
    expect(error.message).toBe('ItemsController: the interceptor Timing has no intercept(ctx, next) method.');
  });

  it('a handler that is not a function', async () => {
    const error = await bootError(() => ({ list: { ...get('/', () => []), handler: 'list' } }));
    expect(error.message).toBe('ItemsController.list: the handler is a string, not a function.');
  });

  it('still boots a well-formed app', async () => {
    const error = await bootError(() => ({ create: post('/', { body: z.object({ title: z.string() }), status: 201 }, (ctx) => ctx.body) }));
    expect(error.message).toBe('createApp succeeded');
  });
});
