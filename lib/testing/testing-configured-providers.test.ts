import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Controller, Get, Injectable, Module } from '../../facade/index.js';
import { createToken, defineController, defineModule, defineProvider, get, isTesseraError, type ModuleDefinition } from '../index.js';
import { defineAuthModule, InMemoryCredentialStore, InMemoryRefreshTokenStore } from '../auth/index.js';
import { PostgresCredentialStore, PostgresRefreshTokenStore } from '../auth/postgres/index.js';
import { SQL_CLIENT } from '../postgres/index.js';
import { createTestingApp } from './index.js';

const SECRET = 'a-test-secret-that-is-long-enough-for-hs256!';
const Claims = z.object({ sub: z.string() });
const auth = defineAuthModule(Claims);

// A pool that is not one: the real stores could not work with it, so a boot that succeeds proves
// the overrides took their place.
const DatabaseModule = defineModule({ name: 'DatabaseModule', providers: [{ provide: SQL_CLIENT, useValue: {} as never }], exports: [SQL_CLIENT] });

/** The auth module wired as docs/auth.md shows it: the stores as defineProvider(Class, [SQL_CLIENT]). */
function appWithPostgresStores(): ModuleDefinition {
  return defineModule({
    name: 'AppModule',
    imports: [
      auth.AuthModule.forRoot({
        secret: SECRET,
        issuing: {
          imports: [DatabaseModule],
          credentialStore: defineProvider(PostgresCredentialStore<z.output<typeof Claims>>, [SQL_CLIENT]),
          refreshTokenStore: defineProvider(PostgresRefreshTokenStore, [SQL_CLIENT]),
        },
      }),
    ],
  });
}

const accounts = () => new InMemoryCredentialStore<z.output<typeof Claims>>([{ identifier: 'ada@acme.test', subject: 'u1', passwordHash: 'unused', claims: { sub: 'u1' } }]);

describe('overriding what a forRoot-style module was given, by its class', () => {
  it('replaces the auth module\u2019s defineProvider stores by their classes; the service uses the replacements', async () => {
    const app = await createTestingApp(appWithPostgresStores())
      .overrideProvider(PostgresCredentialStore)
      .useValue(accounts() as never)
      .overrideProvider(PostgresRefreshTokenStore)
      .useClass(InMemoryRefreshTokenStore as never)
      .compile();
    const pair = await app.get(auth.AUTH_SERVICE).issueTokens('u1');
    expect(pair.refreshToken, 'tokens issued through the overriding stores').toEqual(expect.any(String));
    expect(app.get(PostgresRefreshTokenStore), 'get by the class the module was given').toBeInstanceOf(InMemoryRefreshTokenStore);
  });

  it('replaces a store given as a bare class, and builds the replacement once', async () => {
    let built = 0;
    class CountingStore extends InMemoryRefreshTokenStore {
      constructor() {
        super();
        built += 1;
      }
    }
    class TenantRefreshTokens extends InMemoryRefreshTokenStore {}
    const root = defineModule({
      name: 'AppModule',
      imports: [auth.AuthModule.forRoot({ secret: SECRET, issuing: { credentialStore: InMemoryCredentialStore, refreshTokenStore: TenantRefreshTokens } })],
    });
    const app = await createTestingApp(root).overrideProvider(TenantRefreshTokens).useClass(CountingStore).compile();
    expect(app.get(TenantRefreshTokens), 'the replacement, got by the original class').toBeInstanceOf(CountingStore);
    expect(built, 'one instance for the one declaration').toBe(1);
  });

  it('replaces a class a hand-written forRoot registered under its own token, and the token sees it', async () => {
    interface Mailer {
      send(to: string): string;
    }
    const MAILER = createToken<Mailer>('MAILER');
    class SmtpMailer implements Mailer {
      send(to: string) {
        return `smtp:${to}`;
      }
    }
    const MailModule = { forRoot: (mailer: new () => Mailer) => defineModule({ name: 'MailModule', providers: [{ provide: MAILER, useClass: mailer }], exports: [MAILER] }) };
    const app = await createTestingApp(defineModule({ name: 'AppModule', imports: [MailModule.forRoot(SmtpMailer)] }))
      .overrideProvider(SmtpMailer)
      .useValue({ send: (to) => `fake:${to}` })
      .compile();
    expect(app.get(MAILER).send('ada')).toBe('fake:ada');
    expect(app.get(SmtpMailer)).toBe(app.get(MAILER));
  });

  it('still fails, naming it, for a class nothing declares', async () => {
    class Nowhere {}
    const root = defineModule({ name: 'AppModule', imports: [auth.AuthModule.forRoot({ secret: SECRET, issuing: { credentialStore: InMemoryCredentialStore, refreshTokenStore: InMemoryRefreshTokenStore } })] });
    const error = await createTestingApp(root).overrideProvider(Nowhere).useValue({}).compile().catch((e: unknown) => e);
    expect(isTesseraError(error) && error.code, 'an override that matched nothing').toBe('OVERRIDE_UNUSED');
  });
});

describe('testingApp.get(controller)', () => {
  @Injectable()
  class Greeter {
    greet(name: string) {
      return `hello ${name}`;
    }
  }
  @Controller('greetings')
  class GreetingsController {
    constructor(readonly greeter: Greeter) {}
    @Get()
    list() {
      return [this.greeter.greet('ada')];
    }
  }
  const GREETING = createToken<string>('GREETING');
  const pingController = defineController({ name: 'PingController', inject: [GREETING], routes: (greeting) => ({ ping: get('/ping', () => greeting) }) });
  @Module({ providers: [Greeter, { provide: GREETING, useValue: 'pong' }], controllers: [GreetingsController, pingController] })
  class AppModule {}

  it('returns a class controller\u2019s instance, built with its dependencies', async () => {
    const app = await createTestingApp(AppModule).compile();
    const controller = app.get(GreetingsController);
    expect(controller, 'the instance the routes call').toBeInstanceOf(GreetingsController);
    expect(controller.greeter).toBe(app.get(Greeter));
    expect(controller.list()).toEqual(['hello ada']);
  });

  it('returns a defineController controller\u2019s routes, built with its dependencies', async () => {
    const app = await createTestingApp(AppModule).compile();
    const routes = app.get(pingController);
    expect(routes.ping.path).toBe('/ping');
    expect(await routes.ping.handler({} as never), 'the handler closes over the injected value').toBe('pong');
  });

  it('still says "No provider" for something that is neither a provider nor a controller of the app', async () => {
    const app = await createTestingApp(AppModule).compile();
    class Stranger {}
    expect(() => app.get(Stranger)).toThrow(/No provider for Stranger/);
  });
});
