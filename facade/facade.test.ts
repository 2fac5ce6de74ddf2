import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, createMetadataKey, createToken, defineController, defineModule, defineProvider, get, isTesseraError, ws, type Guard, type RequestContext } from '../lib/index.js';
import { DEFINITION } from '../lib/internal/definitions.js';
import { send } from '../test/http-helpers.js';
import {
  Body,
  Controller,
  Ctx,
  Get,
  Inject,
  Injectable,
  Module,
  moduleFromClass,
  Param,
  Post,
  providerFromClass,
  Query,
  UseGuards,
  Ws,
} from './index.js';

@Injectable()
class Store {
  readonly items: string[] = [];
}

@Injectable()
class Service {
  constructor(readonly store: Store) {}
}

const GREETING = createToken<string>('GREETING');

describe('Injectable and Inject', () => {
  it('reads dependencies from constructor types, with @Inject overriding', () => {
    @Injectable()
    class Mixed {
      constructor(
        readonly service: Service,
        @Inject(GREETING) readonly greeting: string,
      ) {}
    }
    expect(providerFromClass(Service)).toEqual({ kind: 'class', provide: Service, useClass: Service, inject: [Store] });
    expect(providerFromClass(Mixed).inject).toEqual([Service, GREETING]);
  });

  it('fails at boot with a message naming the class and both fixes when metadata is missing', async () => {
    // Applying the decorator by hand emits no design:paramtypes, exactly like esbuild or tsx.
    class NoMetadata {
      constructor(readonly store: Store) {}
    }
    Injectable()(NoMetadata);
    const error = await createApp(defineModule({ name: 'M', providers: [Store, NoMetadata] })).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/NoMetadata.*emitDecoratorMetadata.*@Inject\(token\)/s);
  });

  it('works without metadata when every parameter has @Inject', async () => {
    class Explicit {
      constructor(readonly store: Store) {}
    }
    Inject(Store)(Explicit, undefined, 0);
    Injectable()(Explicit);
    const app = await createApp(defineModule({ name: 'M', providers: [Store, Explicit] }));
    expect(app.get(Explicit).store).toBe(app.get(Store));
  });

  it('refuses a parameter whose type is not a class', async () => {
    interface Config {
      port: number;
    }
    @Injectable()
    class NeedsInterface {
      constructor(readonly config: Config) {}
    }
    await expect(createApp(defineModule({ name: 'M', providers: [NeedsInterface] }))).rejects.toThrow(/parameter #0 of NeedsInterface.*@Inject\(token\)/);
  });

  it('names the class and the position when a dependency was imported with `import type` (tsc records Function)', async () => {
    class ItemsController {
      constructor(readonly service: unknown) {}
    }
    // What tsc emits for `constructor(service: ItemsService)` when ItemsService came from `import type`.
    (Reflect as unknown as { metadata: (key: string, value: unknown) => (target: object) => void }).metadata('design:paramtypes', [Function])(ItemsController);
    Injectable()(ItemsController);
    const error = await createApp(defineModule({ name: 'M', providers: [ItemsController] })).catch((e: unknown) => e);
    expect(isTesseraError(error) && error.code, 'a TesseraError with its code').toBe('PROVIDER_PARAMETER_UNTYPED');
    expect((error as Error).message, 'the message names the class, the position and the likely cause').toMatch(/parameter #0 of ItemsController's constructor.*Function.*import type/s);
  });
});

describe('mixing class and builder modules', () => {
  it('lets a class module import a builder module and the reverse', async () => {
    const StoreModule = defineModule({ name: 'StoreModule', providers: [Store], exports: [Store] });

    @Controller('items')
    class ItemsController {
      constructor(private readonly service: Service) {}
      @Get()
      list() {
        return this.service.store.items;
      }
    }

    @Module({ imports: [StoreModule], providers: [Service], controllers: [ItemsController], exports: [Service] })
    class ItemsModule {}

    const builderController = defineController({
      name: 'CountController',
      inject: [Service],
      routes: (service) => ({ count: get('/count', () => service.store.items.length) }),
    });
    const Root = defineModule({ name: 'Root', imports: [ItemsModule], controllers: [builderController] });
    const app = await createApp(Root);
    app.get(Store).items.push('a');
    expect((await send(app, 'GET', '/items')).json).toEqual(['a']);
    expect((await send(app, 'GET', '/count')).json).toBe(1);
    expect(moduleFromClass(ItemsModule).name).toBe('ItemsModule');
    // The definition is memoized: the same object every time, so the graph sees one module.
    expect(moduleFromClass(ItemsModule)).toBe(moduleFromClass(ItemsModule));
  });
});

describe('controllers', () => {
  it('passes params, body, query and context in declaration order', async () => {
    const Input = z.object({ n: z.number() });
    @Controller('calc')
    class CalcController {
      @Post(':a')
      add(@Param('a') a: string, @Body(Input) body: { n: number }, @Query(z.object({ m: z.coerce.number() })) query: { m: number }, @Ctx() ctx: RequestContext) {
        return { sum: Number(a) + body.n + query.m, method: ctx.method };
      }
    }
    const app = await createApp(defineModule({ name: 'M', controllers: [CalcController] }));
    expect((await send(app, 'POST', '/calc/1?m=10', { json: { n: 2 } })).json).toEqual({ sum: 13, method: 'POST' });
    expect((await send(app, 'POST', '/calc/1?m=x', { json: { n: 2 } })).status).toBe(400);
  });

  it('runs class guards before method guards, in the order written, and records metadata entries as decorators', async () => {
    const order: string[] = [];
    const ROLE = createMetadataKey<string>('test:role');
    const make = (name: string) =>
      class implements Guard {
        canActivate(ctx: RequestContext) {
          order.push(`${name}:${ctx.route?.metadata['test:role'] ?? ctx.route?.controllerMetadata['test:role']}`);
          return true;
        }
      };
    const [A, B, C] = [make('a'), make('b'), make('c')];
    @Controller()
    @UseGuards(A)
    @ROLE.with('reader')
    class GuardedController {
      @Get('x')
      @UseGuards(B, C)
      @ROLE.with('admin')
      x() {
        return 'ok';
      }
      @Get('y')
      y() {
        return 'ok';
      }
    }
    const app = await createApp(defineModule({ name: 'M', controllers: [GuardedController] }));
    await send(app, 'GET', '/x');
    await send(app, 'GET', '/y');
    expect(order).toEqual(['a:admin', 'b:admin', 'c:admin', 'a:reader']);
  });

  it('refuses undecorated handler parameters and params missing from the path', async () => {
    @Controller('a')
    class Gap {
      @Get(':id')
      show(_unused: string, @Param('id') id: string) {
        return id;
      }
    }
    await expect(createApp(defineModule({ name: 'M', controllers: [Gap] }))).rejects.toThrow(/Gap.show: parameter #0 has no/);
    @Controller('b')
    class Missing {
      @Get()
      show(@Param('id') id: string) {
        return id;
      }
    }
    await expect(createApp(defineModule({ name: 'M', controllers: [Missing] }))).rejects.toThrow(/does not declare/);
  });

  it('accepts a decorated provider registered under another token', async () => {
    const SERVICE = createToken<Service>('SERVICE');
    const app = await createApp(defineModule({ name: 'M', providers: [Store, { provide: SERVICE, useClass: Service }] }));
    expect(app.get(SERVICE).store).toBe(app.get(Store));
    expect(defineProvider(Service, [Store]).inject).toEqual(providerFromClass(Service).inject);
  });
});

describe('@Ws', () => {
  /** A route's data with its functions replaced by their kind: what must be equal between the two front ends. */
  const dataOf = (value: unknown): unknown =>
    typeof value === 'function' ? 'function' : Array.isArray(value) ? value.map(dataOf) : value !== null && typeof value === 'object' && !(value instanceof z.ZodType) ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dataOf(v)])) : value;

  it('builds the same route data as the builder ws(), guards, query, schemas, limits and metadata included', () => {
    const Message = z.object({ text: z.string() });
    const Query = z.object({ room: z.string() });
    const NOTE = createMetadataKey<string>('test:note');
    class Allow implements Guard {
      canActivate() {
        return true;
      }
    }
    const handlers = { open: () => undefined, message: () => undefined };
    @Controller('chat')
    class ChatController {
      @Ws('live', { query: Query, message: Message, send: Message, maxMessageBytes: 2048, idleTimeoutSeconds: 30, protocols: ['chat.v1'], invalidMessage: 'reply' })
      @UseGuards(Allow)
      @NOTE.with('socket')
      live() {
        return handlers;
      }
    }
    const built = defineController({
      name: 'ChatController',
      prefix: 'chat',
      routes: () => ({
        live: ws('live', { query: Query, message: Message, send: Message, maxMessageBytes: 2048, idleTimeoutSeconds: 30, protocols: ['chat.v1'], invalidMessage: 'reply', guards: [Allow], metadata: [NOTE.with('socket')] }, handlers),
      }),
    });
    const fromClass = (ChatController as unknown as { [DEFINITION](): typeof built })[DEFINITION]();
    const classRoute = fromClass.setup().routes.live;
    const builderRoute = built.setup().routes.live;
    expect(dataOf(classRoute)).toEqual(dataOf(builderRoute));
    expect(classRoute?.webSocket?.message, 'the schemas are the same objects').toBe(Message);
    expect(classRoute?.webSocket?.handlers.open, 'the handlers are what the method returned').toBe(handlers.open);
  });
});
