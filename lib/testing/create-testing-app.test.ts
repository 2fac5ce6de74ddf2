import { describe, expect, it } from 'vitest';
import { Module } from '../../facade/index.js';
import { createApp, createToken, defineController, defineModule, defineProvider, ForbiddenException, get, isTesseraError, type Guard, type Interceptor, type ModuleDefinition } from '../index.js';
import { createTestingApp } from './index.js';

// Level 3: a dynamic (forRoot-style) database module, builder style.
interface Store {
  titles(): string[];
}
const STORE = createToken<Store>('STORE');
const CONFIG = createToken<{ readonly greeting: string }>('CONFIG');
const Database = {
  forRoot(titles: string[]): ModuleDefinition {
    return defineModule({ name: 'DatabaseModule', providers: [{ provide: STORE, useValue: { titles: () => titles } }], exports: [STORE] });
  },
};
const database = Database.forRoot(['real post']);

// A global module at the root: visible everywhere without an import.
const ConfigModule = defineModule({ name: 'ConfigModule', global: true, providers: [{ provide: CONFIG, useValue: { greeting: 'hello' } }], exports: [CONFIG] });

// Level 2: a class-style module with a service depending on the store and the config.
class ListService {
  constructor(
    private readonly store: Store,
    private readonly config: { readonly greeting: string },
  ) {}
  list() {
    return { greeting: this.config.greeting, titles: this.store.titles() };
  }
}
class DenyGuard implements Guard {
  canActivate(): boolean {
    throw new ForbiddenException('denied');
  }
}
class TagInterceptor implements Interceptor {
  async intercept(_ctx: unknown, next: () => Promise<unknown>) {
    return { real: await next() };
  }
}
const postsController = defineController({
  name: 'PostsController',
  inject: [ListService],
  routes: (service) => ({
    list: get('/posts', () => service.list()),
    guarded: get('/guarded', { guards: [DenyGuard] }, () => 'open'),
    wrapped: get('/wrapped', { interceptors: [TagInterceptor] }, () => 'inner'),
  }),
});
@Module({
  imports: [database],
  providers: [defineProvider(ListService, [STORE, CONFIG])],
  controllers: [postsController],
})
class PostsModule {}

// Level 1: the root.
const AppModule = defineModule({ name: 'AppModule', imports: [ConfigModule, PostsModule] });

const json = async (res: Response) => (await res.json()) as unknown;

describe('createTestingApp', () => {
  it('serves the real graph when nothing is overridden', async () => {
    const app = await createTestingApp(AppModule).compile();
    expect(await json(await app.request('/posts'))).toEqual({ greeting: 'hello', titles: ['real post'] });
  });

  it('overrides a provider declared in a dynamic module two levels down; its dependents get the override', async () => {
    const app = await createTestingApp(AppModule).overrideProvider(STORE).useValue({ titles: () => ['fake post'] }).compile();
    expect(await json(await app.request('/posts'))).toEqual({ greeting: 'hello', titles: ['fake post'] });
  });

  it('overrides a provider of a global module with a factory', async () => {
    const app = await createTestingApp(AppModule).overrideProvider(CONFIG).useFactory({ useFactory: () => ({ greeting: 'from a factory' }) }).compile();
    expect(await json(await app.request('/posts'))).toMatchObject({ greeting: 'from a factory' });
  });

  it('resolves an override\u2019s dependencies where the original was declared (visibility rules unchanged)', async () => {
    const app = await createTestingApp(AppModule)
      .overrideProvider(ListService)
      .useFactory({ inject: [STORE], useFactory: (store: Store) => ({ list: () => ({ count: store.titles().length }) }) as never })
      .compile();
    expect(await json(await app.request('/posts'))).toEqual({ count: 1 });
    // CONFIG lives in ConfigModule, which cannot see STORE: the same wiring error as without the override.
    const invisible = createTestingApp(AppModule).overrideProvider(CONFIG).useFactory({ inject: [STORE], useFactory: () => ({ greeting: 'x' }) }).compile();
    await expect(invisible).rejects.toThrow(/STORE \(needed by CONFIG\) is provided by DatabaseModule but is not visible in ConfigModule/);
  });

  it('overrides a provider of a class-style module with another class and its dependency list', async () => {
    class FakeList {
      constructor(private readonly config: { readonly greeting: string }) {}
      list() {
        return { greeting: this.config.greeting, titles: ['from FakeList'] };
      }
    }
    const app = await createTestingApp(AppModule).overrideProvider(ListService).useClass(FakeList as never, [CONFIG]).compile();
    expect(await json(await app.request('/posts'))).toEqual({ greeting: 'hello', titles: ['from FakeList'] });
  });

  it('overrides a guard that routes name without any module providing it', async () => {
    const real = await createTestingApp(AppModule).compile();
    expect((await real.request('/guarded')).status).toBe(403);
    const app = await createTestingApp(AppModule).overrideGuard(DenyGuard).useValue({ canActivate: () => true }).compile();
    expect(await (await app.request('/guarded')).text()).toBe('"open"');
  });

  it('overrides an interceptor', async () => {
    const app = await createTestingApp(AppModule)
      .overrideInterceptor(TagInterceptor)
      .useValue({ intercept: async (_ctx, next) => ({ fake: await next() }) })
      .compile();
    expect(await json(await app.request('/wrapped'))).toEqual({ fake: 'inner' });
  });

  it('replaces a whole module wherever it is imported, and chains with other overrides', async () => {
    const app = await createTestingApp(AppModule)
      .overrideModule(database)
      .useModule(Database.forRoot(['replacement module']))
      .overrideProvider(CONFIG)
      .useValue({ greeting: 'chained' })
      .compile();
    expect(await json(await app.request('/posts'))).toEqual({ greeting: 'chained', titles: ['replacement module'] });
  });

  it('never changes the root definition: createApp on it afterwards serves the real graph', async () => {
    const before = JSON.stringify(AppModule);
    await createTestingApp(AppModule).overrideProvider(STORE).useValue({ titles: () => ['fake'] }).compile();
    expect(JSON.stringify(AppModule)).toBe(before);
    expect(await json(await (await createApp(AppModule)).request('/posts'))).toEqual({ greeting: 'hello', titles: ['real post'] });
  });

  it('fails at compile() naming a token that nothing in the graph provides or uses', async () => {
    const NOWHERE = createToken<string>('NOWHERE_TOKEN');
    const error = await createTestingApp(AppModule).overrideProvider(NOWHERE).useValue('x').compile().catch((e: unknown) => e);
    expect(isTesseraError(error) && error.code).toBe('OVERRIDE_UNUSED');
    expect((error as Error).message).toMatch(/NOWHERE_TOKEN/);
  });

  it('fails at compile() for a module that is not imported anywhere', async () => {
    const stray = defineModule({ name: 'StrayModule' });
    await expect(createTestingApp(AppModule).overrideModule(stray).useModule(defineModule({ name: 'Other' })).compile()).rejects.toThrow(/module StrayModule/);
  });
});

