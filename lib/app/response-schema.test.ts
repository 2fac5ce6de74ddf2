import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { silentLogger } from '../logging/json-logger.js';
import type { Logger } from '../logging/logger.js';
import { defineModule } from '../modules/module.js';
import { defineController } from '../routing/controller.js';
import { get } from '../routing/route.js';
import { createApp } from './create-app.js';

const User = z.object({ id: z.string(), email: z.string() });
const record = { id: 'u1', email: 'ada@example.test', passwordHash: '$argon2id$v=19$secret', tenantSecret: 'k-123' };

async function app() {
  // Request errors go to the request's child logger: this one is its own child.
    const error = vi.fn<Logger['error']>();
    const logger: Logger & { error: typeof error } = { ...silentLogger, error, child: () => logger };
  const controller = defineController({
    name: 'Users',
    routes: () => ({
      // The handler returns the whole stored record, as handlers do.
      show: get('/user', { response: User }, () => record as z.output<typeof User>),
      broken: get('/broken', { response: User }, () => ({ id: 'u1', email: 42 }) as unknown as z.output<typeof User>),
      raw: get('/raw', { response: User, serializeResponse: false }, () => record as z.output<typeof User>),
      nothing: get('/nothing', { response: User }, () => undefined),
      response: get('/response', { response: User }, () => new Response('as is', { status: 202 })),
    }),
  });
  return { app: await createApp(defineModule({ name: 'M', controllers: [controller] }), { logger }), logger };
}

describe('response schemas', () => {
  it('send only the fields the schema declares', async () => {
    const { app: a } = await app();
    const res = await a.request('/user');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json(), 'an undeclared field of the returned record was sent').toEqual({ id: 'u1', email: 'ada@example.test' });
  });

  it('answer a result the schema refuses with a bare 500, logged with the route name', async () => {
    const { app: a, logger } = await app();
    const res = await a.request('/broken');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text, 'the refused result reached the client').not.toContain('42');
    expect(logger.error).toHaveBeenCalledTimes(1);
    const logged = (logger.error.mock.calls[0]?.[0] as { err: Error }).err;
    expect(logged.message).toContain('Users.broken');
    expect(logged.message).toContain('$.email');
  });

  it('send the result as returned with serializeResponse: false', async () => {
    const { app: a } = await app();
    expect(await (await a.request('/raw')).json()).toEqual(record);
  });

  it('keep undefined as 204 and a returned Response as it is', async () => {
    const { app: a } = await app();
    expect((await a.request('/nothing')).status).toBe(204);
    const res = await a.request('/response');
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('as is');
  });

  it('answer HEAD with the headers of the serialised GET and no body', async () => {
    const { app: a } = await app();
    const res = await a.request('/user', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });
});
