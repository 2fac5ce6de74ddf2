import { describe, expect, it } from 'vitest';
import {
  CircularDependencyError,
  createApp,
  createToken,
  defineController,
  defineFactory,
  defineModule,
  defineProvider,
  get,
  MissingProviderError,
  ModuleGraphError,
  ProviderNotVisibleError,
} from '../index.js';
import { send } from '../../test/http-helpers.js';

class Store {
  readonly items: string[] = [];
}
class Service {
  constructor(readonly store: Store) {}
}
const CONFIG = createToken<{ greeting: string }>('CONFIG');

describe('provider resolution', () => {
  it('builds singletons from classes, factories (async) and values', async () => {
    const GREETER = createToken<(name: string) => string>('GREETER');
    const module = defineModule({
      name: 'Root',
      providers: [
        Store,
        defineProvider(Service, [Store]),
        { provide: CONFIG, useValue: { greeting: 'Hi' } },
        defineFactory(GREETER, [CONFIG], async (config) => (name: string) => `${config.greeting} ${name}`),
      ],
    });
    const app = await createApp(module);
    expect(app.get(Service).store).toBe(app.get(Store));
    expect(app.get(GREETER)('Ada')).toBe('Hi Ada');
  });

  it('injects controller dependencies', async () => {
    const controller = defineController({
      name: 'Items',
      inject: [Service, CONFIG],
      routes: (service, config) => ({ list: get('/items', () => ({ items: service.store.items, greeting: config.greeting })) }),
    });
    const module = defineModule({
      name: 'Root',
      providers: [Store, defineProvider(Service, [Store]), { provide: CONFIG, useValue: { greeting: 'Hey' } }],
      controllers: [controller],
    });
    const app = await createApp(module);
    expect((await send(app, 'GET', '/items')).json).toEqual({ items: [], greeting: 'Hey' });
  });

  it('refuses a bare class with constructor parameters, naming both fixes', async () => {
    const module = defineModule({ name: 'Root', providers: [Service] });
    await expect(createApp(module)).rejects.toThrow(/Service has constructor parameters.*defineProvider\(Service.*@Injectable\(\)/s);
  });
});

describe('visibility', () => {
  const StoreModule = defineModule({ name: 'StoreModule', providers: [Store], exports: [Store] });
  const HiddenStoreModule = defineModule({ name: 'HiddenStoreModule', providers: [Store] });

  it('sees exports of imported modules, and re-exports through an exported module', async () => {
    const Middle = defineModule({ name: 'Middle', imports: [StoreModule], exports: [StoreModule] });
    const Root = defineModule({ name: 'Root', imports: [Middle], providers: [defineProvider(Service, [Store])] });
    const app = await createApp(Root);
    expect(app.get(Service).store).toBeInstanceOf(Store);
  });

  it('sees global modules exports without importing them', async () => {
    const GlobalConfig = defineModule({ name: 'GlobalConfig', global: true, providers: [{ provide: CONFIG, useValue: { greeting: 'g' } }], exports: [CONFIG] });
    const Feature = defineModule({ name: 'Feature', providers: [defineFactory(createToken<string>('X'), [CONFIG], (c) => c.greeting)] });
    const Root = defineModule({ name: 'Root', imports: [GlobalConfig, Feature] });
    await expect(createApp(Root)).resolves.toBeDefined();
  });

  it('raises MissingProviderError naming the token, the requester and the module', async () => {
    const Root = defineModule({ name: 'Root', providers: [defineProvider(Service, [Store])] });
    const error = await createApp(Root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingProviderError);
    expect((error as Error).message).toMatch(/No provider for Store \(needed by Service in Root\)/);
  });

  it('raises ProviderNotVisibleError naming the module to import', async () => {
    const Feature = defineModule({ name: 'Feature', providers: [defineProvider(Service, [Store])] });
    const Root = defineModule({ name: 'Root', imports: [Feature, StoreModule] });
    const error = await createApp(Root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderNotVisibleError);
    expect((error as Error).message).toMatch(/Store \(needed by Service\) is provided by StoreModule but is not visible in Feature.*add StoreModule to the imports of Feature/);
  });

  it('says when the providing module must also export the token', async () => {
    const Feature = defineModule({ name: 'Feature', imports: [HiddenStoreModule], providers: [defineProvider(Service, [Store])] });
    const error = await createApp(defineModule({ name: 'Root', imports: [Feature] })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderNotVisibleError);
    expect((error as Error).message).toMatch(/add Store to the exports of HiddenStoreModule/);
  });

  it('refuses exporting what a module does not have', async () => {
    const Bad = defineModule({ name: 'Bad', exports: [Store] });
    await expect(createApp(Bad)).rejects.toThrow(ModuleGraphError);
  });

  it('supports dynamic modules built by a function', async () => {
    const ConfigModule = { forRoot: (greeting: string) => defineModule({ name: 'ConfigModule', providers: [{ provide: CONFIG, useValue: { greeting } }], exports: [CONFIG] }) };
    const Root = defineModule({ name: 'Root', imports: [ConfigModule.forRoot('dyn')] });
    const app = await createApp(Root);
    expect(app.get(CONFIG).greeting).toBe('dyn');
  });
});

describe('cycles and lifecycle', () => {
  it('detects dependency cycles and names the chain', async () => {
    const A = createToken<unknown>('A');
    const B = createToken<unknown>('B');
    const C = createToken<unknown>('C');
    const Root = defineModule({
      name: 'Root',
      providers: [defineFactory(A, [B], () => 1), defineFactory(B, [C], () => 2), defineFactory(C, [A], () => 3)],
    });
    const error = await createApp(Root).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CircularDependencyError);
    expect((error as Error).message).toBe('Circular dependency: A -> B -> C -> A');
  });

  it('awaits onModuleInit dependencies first, and runs shutdown hooks in reverse on close', async () => {
    const events: string[] = [];
    class Db {
      async onModuleInit() {
        await new Promise((r) => setTimeout(r, 5));
        events.push('db:init');
      }
      onModuleDestroy() {
        events.push('db:destroy');
      }
      onApplicationShutdown() {
        events.push('db:shutdown');
      }
    }
    class Repo {
      constructor(readonly db: Db) {}
      onModuleInit() {
        events.push('repo:init');
      }
      onModuleDestroy() {
        events.push('repo:destroy');
      }
    }
    const DbModule = defineModule({ name: 'DbModule', providers: [Db], exports: [Db] });
    const Root = defineModule({ name: 'Root', imports: [DbModule], providers: [defineProvider(Repo, [Db])] });
    const app = await createApp(Root);
    expect(events).toEqual(['db:init', 'repo:init']);
    await app.close();
    expect(events).toEqual(['db:init', 'repo:init', 'repo:destroy', 'db:destroy', 'db:shutdown']);
  });
});

describe('useExisting', () => {
  it('aliases a token to the same instance, across modules', async () => {
    const ALIAS = createToken<Store>('ALIAS');
    const StoreModule = defineModule({ name: 'StoreModule', providers: [Store], exports: [Store] });
    const Root = defineModule({ name: 'Root', imports: [StoreModule], providers: [{ provide: ALIAS, useExisting: Store }] });
    const app = await createApp(Root);
    expect(app.get(ALIAS)).toBe(app.get(Store));
  });
});
