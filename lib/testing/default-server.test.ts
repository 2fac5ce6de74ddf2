import { afterEach, describe, expect, it } from 'vitest';
import { defineController, defineModule, get, type ListeningServer } from '../index.js';
import { createTestingApp as createNeutralTestingApp } from './index.js';
import { createTestingApp } from './index-node.js';

// `tessera-http/testing` as Node resolves it (the `node` export condition, lib/testing/index-node.ts)
// gives its apps Node's server adapter, as `tessera-http` does: listen() serves, as after createApp.
const hello = defineController({ name: 'Hello', prefix: '/hello', routes: () => ({ greet: get('/:name', (ctx) => ({ message: `Hello, ${ctx.params.name}!` })) }) });
const AppModule = defineModule({ name: 'AppModule', controllers: [hello] });

let server: ListeningServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('createTestingApp from the Node testing entry', () => {
  it('listens on a real socket with no server option and serves its routes', async () => {
    const app = await createTestingApp(AppModule).compile();
    server = await app.listen(0);
    const res = await fetch(`${server.url}/hello/Ada`);
    expect(res.status, 'the listening testing app did not answer its route').toBe(200);
    expect(await res.json()).toEqual({ message: 'Hello, Ada!' });
  });

  it('keeps a server adapter given in the app options', async () => {
    const app = await createTestingApp(AppModule, { server: async () => ({ port: 1, host: 'h', url: 'http://h:1', close: async () => undefined }) }).compile();
    expect((await app.listen(0)).url, 'the given adapter was not the one used').toBe('http://h:1');
  });

  it('the runtime-neutral entry (Workers, browsers) still refuses with SERVER_ADAPTER_MISSING', async () => {
    const app = await createNeutralTestingApp(AppModule).compile();
    await expect(app.listen(0)).rejects.toMatchObject({ code: 'SERVER_ADAPTER_MISSING' });
  });
});
