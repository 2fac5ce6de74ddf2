import { afterEach, describe, expect, it } from 'vitest';
import { createApp as createCoreApp, defineController, defineModule, get, type ListeningServer, type ServerAdapter } from '../../index.js';
import { createApp } from '../../index-node.js';

// `tessera-http` as Node resolves it (the `node` export condition, lib/index-node.ts) lets
// `app.listen` serve with createApp(Module) alone; the core entry alone has no adapter.
const hello = defineController({ name: 'Hello', prefix: '/hello', routes: () => ({ greet: get('/:name', (ctx) => ({ message: `Hello, ${ctx.params.name}!` })) }) });
const AppModule = defineModule({ name: 'AppModule', controllers: [hello] });

let server: ListeningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('app.listen with the Node entry', () => {
  it('binds a real socket with createApp(Module) alone and serves requests on it', async () => {
    const app = await createApp(AppModule);
    server = await app.listen(0);
    const res = await fetch(`${server.url}/hello/Ada`);
    expect(res.status, 'the listening app did not answer its route').toBe(200);
    expect(await res.json()).toEqual({ message: 'Hello, Ada!' });
  });

  it('keeps the server adapter given to createApp', async () => {
    const calls: unknown[] = [];
    const custom: ServerAdapter = async (_app, options) => {
      calls.push(options);
      return { port: 1, host: 'h', url: 'http://h:1', close: async () => undefined };
    };
    const app = await createApp(AppModule, { server: custom });
    const listening = await app.listen(4321, '127.0.0.2');
    expect(listening.url).toBe('http://h:1');
    expect(calls, 'the given adapter was not the one used').toEqual([{ port: 4321, host: '127.0.0.2' }]);
  });

  it('refuses with SERVER_ADAPTER_MISSING from the core entry alone (a Workers or browser bundle)', async () => {
    const app = await createCoreApp(AppModule);
    await expect(app.listen(0)).rejects.toMatchObject({ code: 'SERVER_ADAPTER_MISSING' });
  });
});
