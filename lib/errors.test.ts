import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createApp,
  defineController,
  defineModule,
  get,
  HttpException,
  isTesseraError,
  MissingProviderError,
  NotFoundException,
  RouteDefinitionError,
  TesseraError,
  createToken,
  defineFactory,
} from './index.js';
import { ClockError, checkedClock } from './internal/primitives.js';
import { AuthConfigError, defineAuthModule } from './auth/index.js';
import { OpenApiGenerationError, generateOpenApiDocument } from './openapi/index.js';

async function thrownBy(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('every framework error is a TesseraError with a stable code', () => {
  it.each([
    ['a missing provider', () => createApp(defineModule({ name: 'M', providers: [defineFactory(createToken('A'), [createToken('B')], () => 1)] })), MissingProviderError, 'DI_MISSING_PROVIDER'],
    ['a bad route path', () => createApp(defineModule({ name: 'M', controllers: [defineController({ name: 'C', routes: () => ({ a: get('/a/*/b', () => 1) }) })] })), RouteDefinitionError, 'ROUTE_INVALID'],
    ['a short secret', () => defineAuthModule(z.object({ sub: z.string() })).AuthModule.forRoot({ secret: 'short' }), AuthConfigError, 'AUTH_CONFIG'],
    ['a broken clock', () => checkedClock({ now: () => Number.NaN }), ClockError, 'CLOCK_INVALID'],
    ['a bad OpenAPI option', () => generateOpenApiDocument({ routes: [] }, { title: 'T', version: '1', servers: [] }), OpenApiGenerationError, 'OPENAPI_GENERATION'],
  ])('%s', async (_what, run, type, code) => {
    const error = await thrownBy(run);
    expect(error).toBeInstanceOf(type);
    expect(error).toBeInstanceOf(TesseraError);
    expect(isTesseraError(error)).toBe(true);
    expect((error as TesseraError).code).toBe(code);
  });

  it('gives an HttpException a code from its status, and a problem type that reaches the body', async () => {
    expect(new NotFoundException().code).toBe('NOT_FOUND');
    expect(new HttpException(429, 'slow down').code).toBe('TOO_MANY_REQUESTS');
    const custom = new HttpException(409, 'Title taken', undefined, undefined, { type: 'https://api.example.test/problems/title-taken', code: 'TITLE_TAKEN' });
    expect(custom.code).toBe('TITLE_TAKEN');
    const controller = defineController({ name: 'C', routes: () => ({ a: get('/a', () => { throw custom; }) }) });
    const app = await createApp(defineModule({ name: 'M', controllers: [controller] }));
    const res = await app.request('/a');
    expect(await res.json()).toEqual({ type: 'https://api.example.test/problems/title-taken', title: 'Conflict', status: 409, detail: 'Title taken' });
  });
});
