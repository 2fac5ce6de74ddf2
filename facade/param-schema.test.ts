import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineController, defineModule, get, type RouteInfo } from '../lib/index.js';
import { generateOpenApiDocument } from '../lib/openapi/index.js';
import { Controller, Get, Param } from './index.js';

const NumericId = z.coerce.number().int().positive();

@Controller('tenants/:tenant/items')
class ItemsController {
  @Get(':id')
  show(@Param('tenant') tenant: string, @Param('id', NumericId) id: number) {
    return { tenant, id, type: typeof id };
  }
}

const builderItems = defineController({
  name: 'ItemsController',
  prefix: '/tenants/:tenant/items',
  routes: ({ get: bound }) => ({ show: bound('/:id', { params: z.object({ id: NumericId }) }, (ctx) => ({ tenant: ctx.params.tenant, id: ctx.params.id, type: typeof ctx.params.id })) }),
});

const facadeApp = () => createApp(defineModule({ name: 'M', controllers: [ItemsController] }));
const builderApp = () => createApp(defineModule({ name: 'M', controllers: [builderItems] }));

describe('@Param(name, schema)', () => {
  it('hands the method the parsed value', async () => {
    const app = await facadeApp();
    expect(await (await app.request('/tenants/acme/items/12')).json()).toEqual({ tenant: 'acme', id: 12, type: 'number' });
  });

  it('answers an invalid parameter with the same 400 problem a defineController route gives', async () => {
    const [facade, builder] = await Promise.all([facadeApp(), builderApp()]);
    const fromFacade = await facade.request('/tenants/acme/items/x');
    const fromBuilder = await builder.request('/tenants/acme/items/x');
    expect(fromFacade.status).toBe(400);
    const problem = (await fromFacade.json()) as { detail: string; issues: { path: unknown[] }[] };
    expect(problem.issues.map((issue) => issue.path), 'the issue should name the parameter').toEqual([['id']]);
    expect(problem, 'the facade and the builder should answer alike').toEqual(await fromBuilder.json());
  });

  it('produces the route data defineController produces: a params object of the per-parameter schemas', async () => {
    const [facade, builder] = await Promise.all([facadeApp(), builderApp()]);
    const shapeOf = (route: RouteInfo | undefined) => z.toJSONSchema(route?.paramsSchema as z.ZodType, { io: 'input' });
    expect(facade.routes[0]?.paramsSchema, 'the facade route has no params schema').toBeDefined();
    expect(shapeOf(facade.routes[0])).toEqual(shapeOf(builder.routes[0]));
    const options = { title: 'Items', version: '1' };
    expect(generateOpenApiDocument(facade, options).paths).toEqual(generateOpenApiDocument(builder, options).paths);
  });

  it('leaves the route without a params schema when no @Param has one', async () => {
    @Controller('plain')
    class Plain {
      @Get(':id')
      show(@Param('id') id: string) {
        return id;
      }
    }
    const app = await createApp(defineModule({ name: 'M', controllers: [Plain] }));
    expect(app.routes[0]?.paramsSchema).toBeUndefined();
    expect(await (await app.request('/plain/x')).json()).toBe('x');
  });

  it('refuses one name read with two different schemas', async () => {
    @Controller('twice')
    class Twice {
      @Get(':id')
      show(@Param('id', z.coerce.number()) a: number, @Param('id', z.string()) b: string) {
        return [a, b];
      }
    }
    await expect(createApp(defineModule({ name: 'M', controllers: [Twice] }))).rejects.toThrow("Twice.show: @Param('id') is given two different schemas");
  });
});

describe('OpenAPI path parameters', () => {
  it('documents a parsed parameter by its schema (input side) and the others as strings', async () => {
    const app = await createApp(defineModule({ name: 'M', controllers: [builderItems] }));
    const operation = generateOpenApiDocument(app, { title: 'Items', version: '1' }).paths['/tenants/{tenant}/items/{id}']?.get;
    expect(operation?.parameters).toEqual([
      { name: 'tenant', in: 'path', required: true, schema: { type: 'string' } },
      { name: 'id', in: 'path', required: true, schema: { type: 'integer', exclusiveMinimum: 0, maximum: Number.MAX_SAFE_INTEGER } },
    ]);
    expect(operation?.responses['400'], 'a route that validates its parameters can answer 400').toBeDefined();
  });

  it('keeps plain string parameters for a route without a params schema', async () => {
    const app = await createApp(defineModule({ name: 'M', controllers: [defineController({ name: 'C', routes: () => ({ one: get('/posts/:id', () => null) }) })] }));
    const operation = generateOpenApiDocument(app, { title: 'T', version: '1' }).paths['/posts/{id}']?.get;
    expect(operation?.parameters).toEqual([{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }]);
    expect(operation?.responses['400']).toBeUndefined();
  });
});
