import { describe, expect, it } from 'vitest';
import { createApp } from '../../lib/index.js';
import { send } from '../../test/http-helpers.js';
import { GreetingModule } from './greeting-module.js';

describe('greeting app', () => {
  it('greets by name, URL-decoded', async () => {
    const app = await createApp(GreetingModule);
    expect((await send(app, 'GET', '/hello/Ada')).json).toEqual({ message: 'Hello, Ada!' });
    const encoded = await send(app, 'GET', '/hello/Jos%C3%A9%20M');
    expect(encoded.status).toBe(200);
    expect(encoded.json).toEqual({ message: 'Hello, José M!' });
  });

  it('answers 405 for other methods and 404 without a name', async () => {
    const app = await createApp(GreetingModule);
    const wrong = await send(app, 'POST', '/hello/Ada');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET');
    expect((await send(app, 'GET', '/hello')).status).toBe(404);
  });
});
