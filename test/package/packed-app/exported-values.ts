// Every value below is exported with its type inferred, from a project compiled with
// `declaration: true`: tsc must name each type from the package's entry points (TS2742 when a
// type lives only in an internal chunk of dist/).
import { z } from 'zod';
import { systemClock, createApp, createManualClock, createMetadataKey, createStateKey, createToken, defineConfig, defineController, defineFactory, defineModule, defineProvider, get, post } from 'tessera-http';
import { createBearerTokenVerifier, createClientAddressReader, createPasswordHasher, createTrustedProxyMatcher, defineAuthModule } from 'tessera-http/auth';
import { createClient, createFetchClient } from 'tessera-http/client';
import { createTestingApp } from 'tessera-http/testing';
import { toFetchHandler } from 'tessera-http/fetch';
import { compression, cors, etag, requestId, securityHeaders } from 'tessera-http/middleware';
import { createRequestListener } from 'tessera-http/node';
import { ApiTags } from 'tessera-http/openapi';
import { openTelemetry } from 'tessera-http/otel';
import { postgresHealthCheck, SQL_CLIENT } from 'tessera-http/postgres';
import { Controller, Get, Injectable } from 'tessera-http/facade';

export const ROLE = createMetadataKey<string>('role');
export const TENANT = createStateKey<string>('tenant');
export const SETTINGS = createToken<{ readonly port: number }>('SETTINGS');
export const clock = createManualClock(0);
export const config = defineConfig(z.object({ PORT: z.coerce.number().int().default(3000) }));

export class Greeter {
  greet(name: string): string {
    return `Hello, ${name}!`;
  }
}
export const greeterProvider = defineProvider(Greeter, []);
export const settingsProvider = defineFactory(SETTINGS, [], () => ({ port: 3000 }));

export const hello = defineController({
  name: 'HelloController',
  prefix: '/hello',
  inject: [Greeter],
  routes: (greeter) => ({
    greet: get('/:name', (ctx) => ({ message: greeter.greet(ctx.params.name) })),
    echo: post('/', { body: z.object({ text: z.string() }) }, (ctx) => ctx.body),
  }),
});
export const HelloModule = defineModule({ name: 'HelloModule', providers: [greeterProvider, settingsProvider], controllers: [hello] });

export const auth = defineAuthModule(z.object({ sub: z.string(), roles: z.array(z.string()) }));
export const { AuthModule, JwtAuthGuard, AuthGuard, createRolesGuard, getCurrentUser, getCurrentApiKey, AUTH_SERVICE, JWKS_HEALTH_CHECK, CREDENTIAL_REVOCATION, ACCOUNT_SERVICE, BROWSER_SESSIONS } = auth;
export const AdminGuard = createRolesGuard('admin');
export const AuthRoot = AuthModule.forRoot({ secret: 'a-declaration-test-secret-of-32+bytes' });

export const verifier = createBearerTokenVerifier({ own: { secret: 'a-declaration-test-secret-of-32+bytes', algorithm: 'HS256' }, clock: systemClock });
export const clientAddress = createClientAddressReader();
export const proxies = createTrustedProxyMatcher(['10.0.0.0/8']);
export const hasher = createPasswordHasher();

export const helloClient = createClient(hello, 'http://localhost:3000');
export const fetchClient = createFetchClient<{ paths: Record<string, never> }>('http://localhost:3000');
export const app = createApp(HelloModule);
export const testing = createTestingApp(HelloModule);

export const middleware = [cors({ origin: ['https://app.example'] }), compression(), etag(), requestId(), securityHeaders()];
export const tagged = ApiTags('hello');
export const instrumentation = openTelemetry();
export const sqlClientToken = SQL_CLIENT;
export const databaseCheck = defineFactory(createToken<ReturnType<typeof postgresHealthCheck>>('DatabaseCheck'), [SQL_CLIENT], (client) => postgresHealthCheck(client));
export const controllerDecorator = Controller('cats');
export const getDecorator = Get(':id');
export const injectable = Injectable();
export const fetchHandler = app.then((built) => toFetchHandler(built));
export const requestListener = app.then((built) => createRequestListener(built));
